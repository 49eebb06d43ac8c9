/**
 * `streamer-rating`: the command-line tool's entry. What it does is dispatch.ts's `main`, which
 * the tests also call in-process where only its words and exit code are checked.
 */
import { main } from './dispatch.ts';

process.exitCode = await main(process.argv.slice(2));
