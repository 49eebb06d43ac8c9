import { createInterface } from 'node:readline';
import { storeAdminHash } from '../auth/admin-password.ts';
import { hashPassword } from '../auth/passwords.ts';
import { type Config, parseConfig } from '../config.ts';
import { openDatabase } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrator.ts';
import type { Db } from '../db/schema.ts';
import { loadDotEnv, startServer } from '../server.ts';

/** A command-line usage error: printed with the command's help, exit code 2. */
export class UsageError extends Error {}

interface Command {
  summary: string;
  usage: string;
  run(args: string[], config: Config): Promise<void>;
}

async function withDb<T>(config: Config, fn: (db: Db) => Promise<T>): Promise<T> {
  const { db } = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(db);
    return await fn(db);
  } finally {
    await db.destroy();
  }
}

/** Reads a password from stdin: prompted without echo on a terminal, else the first line. */
async function readPassword(prompt: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    const rl = createInterface({ input: stdin });
    for await (const line of rl) {
      rl.close();
      return line;
    }
    return '';
  }
  process.stdout.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let value = '';
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off('data', onData);
          process.stdout.write('\n');
          return resolve(value);
        }
        if (ch === '\u0003') {
          stdin.setRawMode(false);
          return reject(new UsageError('cancelled'));
        }
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

export const commands: Record<string, Command> = {
  serve: {
    summary: 'Run the service (migrations first), as `npm start` does',
    usage: 'serve',
    run: async (args, config) => {
      if (args.length) throw new UsageError('serve takes no arguments');
      await startServer(config);
    },
  },
  migrate: {
    summary: 'Apply pending database migrations and exit',
    usage: 'migrate',
    run: async (args, config) => {
      if (args.length) throw new UsageError('migrate takes no arguments');
      const { db } = openDatabase(config.databaseUrl);
      try {
        const applied = await migrateToLatest(db);
        console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
      } finally {
        await db.destroy();
      }
    },
  },
  'admin-password': {
    summary: 'Set the administrator password (prompted without echo, or read from stdin)',
    usage: 'admin-password',
    run: async (args, config) => {
      if (args.length) throw new UsageError('admin-password takes no arguments; it reads the password');
      const password = await readPassword('New administrator password: ');
      if (password.length < 8) throw new UsageError('the password must have at least 8 characters');
      await withDb(config, async (db) => storeAdminHash(db, await hashPassword(password)));
      console.log('Administrator password changed.');
      if (config.adminPasswordHash || config.adminPassword) {
        console.log('Note: ADMIN_PASSWORD_HASH or ADMIN_PASSWORD is set and takes precedence over it.');
      }
    },
  },
};

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
    process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

const code = await main(process.argv.slice(2));
if (code !== 0 || process.argv[2] !== 'serve') process.exitCode = code;
