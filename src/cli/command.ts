/**
 * The table of commands the dispatcher (main.ts) reads. Kept free of anything heavy: main.ts
 * imports it to print help, which must not load the service.
 */
import type { ParseArgsConfig } from 'node:util';
import type { CommandModule } from './args.ts';

export interface Command {
  summary: string;
  usage: string;
  /** Options besides `--help`, for `parseArgs`; any other option is a usage error. */
  options?: NonNullable<ParseArgsConfig['options']>;
  load: () => Promise<CommandModule>;
}

/**
 * Every command, in the order `--help` lists them. A `load` must stay a dynamic import: a
 * static one would load the service (Fastify, Kysely, the drivers, argon2) for `--help`.
 */
export const commands: Readonly<Record<string, Command>> = {
  serve: {
    summary: 'Run the service (migrations first), as `npm start` does',
    usage: 'serve',
    load: () => import('./commands/serve.ts'),
  },
  migrate: {
    summary: 'Apply pending database migrations and exit',
    usage: 'migrate',
    load: () => import('./commands/migrate.ts'),
  },
  'admin-password': {
    summary: 'Set the administrator password (prompted without echo, or read from stdin)',
    usage: 'admin-password',
    load: () => import('./commands/admin-password.ts'),
  },
  users: {
    summary: 'List users, or ban, unban, make or unmake a moderator or an administrator',
    usage: 'users list [search] | users ban|unban|mod|unmod|admin|unadmin <provider_a|provider_b> <login>',
    load: () => import('./commands/users.ts'),
  },
  settings: {
    summary: 'Read or change the auth_enabled setting (sign-in required to comment)',
    usage: 'settings get auth_enabled | settings set auth_enabled <true|false>',
    load: () => import('./commands/settings.ts'),
  },
  export: {
    summary: 'Write all data as JSON (secrets and sessions excepted); `-` writes to stdout',
    usage: 'export <file>',
    load: () => import('./commands/export.ts'),
  },
  import: {
    summary: 'Load a JSON export into an empty database (--force replaces existing data)',
    usage: 'import <file> [--force]',
    options: { force: { type: 'boolean' } },
    load: () => import('./commands/import.ts'),
  },
  backup: {
    summary:
      'Copy a running SQLite database consistently to a new file (--force replaces an existing one; PostgreSQL: use pg_dump)',
    usage: 'backup <file> [--force]',
    options: { force: { type: 'boolean' } },
    load: () => import('./commands/backup.ts'),
  },
  restore: {
    summary:
      'Replace the SQLite database with a backup, after checking it (integrity, version); the old file is kept aside',
    usage: 'restore <file>',
    load: () => import('./commands/restore.ts'),
  },
  demo: {
    summary: 'Fill an empty database with sample streamers, ratings, comments and a team',
    usage: 'demo',
    load: () => import('./commands/demo.ts'),
  },
};

export function findCommand(name: string): Command | undefined {
  return Object.hasOwn(commands, name) ? commands[name] : undefined;
}
