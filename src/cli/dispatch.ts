/**
 * `streamer-rating`'s dispatcher (main.ts runs it): reads the command and its options with `parseArgs`, prints help, and
 * imports the command's module only to run it, so that `--help` and argument errors come
 * back at once. Exit codes: 0 done, 1 failed, 2 bad arguments.
 */
import { parseArgs } from 'node:util';
import { loadDotEnv } from '../config/dotenv.ts';
import { parseConfig } from '../config/config.ts';
import { redactCredentials } from '../lib/redact.ts';
import { VERSION } from '../lib/version.ts';
import { type CommandArgs, type Io, UsageError } from './args.ts';
import { type Command, commands, findCommand } from './command.ts';

export function help(name?: string): string {
  const cmd = name === undefined ? undefined : findCommand(name);
  if (cmd) return `Usage: streamer-rating ${cmd.usage}\n\n${cmd.summary}.\n`;
  const width = Math.max(...Object.keys(commands).map((k) => k.length));
  return [
    'Usage: streamer-rating <command> [arguments]',
    '',
    'Commands:',
    ...Object.entries(commands).map(([k, c]) => `  ${k.padEnd(width)}  ${c.summary}`),
    '',
    'Every command reads DATABASE_URL and the other variables of README.md (and ./.env).',
    'Run `streamer-rating <command> --help` for one command, `streamer-rating --version` for the version.',
    '',
  ].join('\n');
}

const HELP = { help: { type: 'boolean', short: 'h' } } as const;
/** A command or an option the tool does not know, said once for every place that meets one. */
const unknown = (what: 'command' | 'option', name: string) => `unknown ${what} ${JSON.stringify(name)}`;
const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h' || arg === 'help';

/** The command's arguments, or `'help'` when `--help` or `-h` is among its options. */
function parseCommandArgs(cmd: Command, args: string[]): CommandArgs | 'help' {
  const options = { ...cmd.options, ...HELP };
  // A first lenient pass, so that `--help` wins over a mistake elsewhere on the line.
  const { tokens } = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true });
  if (tokens.some((t) => t.kind === 'option' && t.name === 'help')) return 'help';
  // In our words: parseArgs' own sentence about it quotes unevenly.
  const stranger = tokens.find((t) => t.kind === 'option' && !Object.hasOwn(options, t.name));
  if (stranger?.kind === 'option') throw new UsageError(unknown('option', stranger.rawName));
  try {
    const { values, positionals } = parseArgs({ args, options, strict: true, allowPositionals: true });
    return { values, positionals };
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

const processIo: Io = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  line: (text) => console.log(text),
  env: process.env,
};

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) {
    io.out(help());
    return 2;
  }
  if (name === '--version' || name === '-v') {
    io.out(`${VERSION}\n`);
    return 0;
  }
  if (isHelp(name)) {
    const [topic] = args;
    if (topic !== undefined && !findCommand(topic)) {
      io.err(`Error: ${unknown('command', topic)}\n\n${help()}`);
      return 2;
    }
    io.out(help(topic));
    return 0;
  }
  const cmd = findCommand(name);
  if (!cmd) {
    io.err(`Error: ${unknown(name.startsWith('-') ? 'option' : 'command', name)}\n\n${help()}`);
    return 2;
  }
  try {
    const parsed = parseCommandArgs(cmd, args);
    if (parsed === 'help') {
      io.out(help(name));
      return 0;
    }
    loadDotEnv();
    const config = parseConfig(io.env);
    const { run } = await cmd.load();
    await run(parsed, config, io);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`Error: ${err.message}\n\n${help(name)}`);
      return 2;
    }
    // A mistyped DATABASE_URL is named in its error: never with its password.
    const message = redactCredentials(err instanceof Error ? err.message : String(err));
    io.err(`Error: ${message}\n`);
    return 1;
  }
}
