import { parseConfig } from '../config.ts';
import { loadDotEnv } from '../server.ts';
import { commands, UsageError } from './commands.ts';

export function help(name?: string): string {
  const cmd = name ? commands[name] : undefined;
  if (cmd) return `Usage: streamer-rating ${cmd.usage}\n\n${cmd.summary}.\n`;
  const width = Math.max(...Object.keys(commands).map((k) => k.length));
  return [
    'Usage: streamer-rating <command> [arguments]',
    '',
    'Commands:',
    ...Object.entries(commands).map(([k, c]) => `  ${k.padEnd(width)}  ${c.summary}`),
    '',
    'Every command reads DATABASE_URL and the other variables of README.md (and ./.env).',
    'Run `streamer-rating <command> --help` for one command.',
    '',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(help(args[0]));
    return name ? 0 : 2;
  }
  const cmd = commands[name];
  if (!cmd) {
    process.stderr.write(`Unknown command: ${name}\n\n${help()}`);
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(help(name));
    return 0;
  }
  try {
    loadDotEnv();
    await cmd.run(args, parseConfig());
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`Error: ${err.message}\n\n${help(name)}`);
      return 2;
    }
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`Error: ${message}\n`);
    return 1;
  }
}

const code = await main(process.argv.slice(2));
if (code !== 0 || process.argv[2] !== 'serve') process.exitCode = code;
