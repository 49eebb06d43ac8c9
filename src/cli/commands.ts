/** The commands of `streamer-rating`; main.ts parses arguments and prints help. */
import { readFileSync } from 'node:fs';
import { audit } from '../audit/queries.ts';
import { storeAdminHash } from '../auth/admin-password.ts';
import { hashPassword } from '../auth/passwords.ts';
import { type Config, PROVIDERS, type Provider } from '../config.ts';
import { openDatabase, type Opened } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrator.ts';
import type { Db } from '../db/schema.ts';
import { writeTransaction } from '../db/transaction.ts';
import { startServer } from '../server.ts';
import { getSetting, setSetting } from '../settings/queries.ts';
import { findUserByLogin, listUsers, setBanned, setModerator } from '../users/queries.ts';
import { backupSqlite, exportData, importData, parseExport, writeJson } from './data.ts';
import { fillDemo } from './demo.ts';
import { readPassword } from './prompt.ts';

/** A command-line usage error: printed with the command's help, exit code 2. */
export class UsageError extends Error {}

interface Command {
  summary: string;
  usage: string;
  run(args: string[], config: Config): Promise<void>;
}

async function withDb<T>(config: Config, fn: (db: Db, opened: Opened) => Promise<T>): Promise<T> {
  const opened = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(opened.db);
    return await fn(opened.db, opened);
  } finally {
    await opened.db.destroy();
  }
}

/** The command line acts as the operator; its changes go to the audit log like the admin's. */
const cliAudit = (
  db: Db,
  action: 'user.ban' | 'user.moderator' | 'settings.update',
  summary: string,
  target_id?: number,
) =>
  audit(db, {
    actor: 'cli',
    actor_user_id: null,
    action,
    summary,
    target_id: target_id ?? null,
    at: new Date().toISOString(),
  });

function parseBool(value: string | undefined): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new UsageError(`expected true or false, got ${JSON.stringify(value ?? '')}`);
}

const USER_ACTIONS = {
  ban: { banned: true },
  unban: { banned: false },
  mod: { is_mod: true },
  unmod: { is_mod: false },
} as const;

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
  users: {
    summary: 'List users, or ban, unban, make or unmake a moderator',
    usage: 'users list [search] | users ban|unban|mod|unmod <provider_a|provider_b> <login>',
    run: async (args, config) => {
      const [action, ...rest] = args;
      if (action === 'list') {
        if (rest.length > 1) throw new UsageError('users list takes at most one search text');
        const users = await withDb(config, (db) => listUsers(db, rest[0]));
        if (users.length === 0) console.log('No users.');
        for (const u of users) {
          const flags = [u.banned && 'banned', u.is_mod && 'moderator'].filter(Boolean).join(',');
          console.log(
            `${String(u.id).padStart(5)}  ${u.provider}  ${u.login.padEnd(24)} ${u.display_name.padEnd(24)} ${u.last_seen}  ${flags}`,
          );
        }
        return;
      }
      if (!action || !(action in USER_ACTIONS))
        throw new UsageError(`unknown users action ${JSON.stringify(action ?? '')}`);
      const [provider, login] = rest;
      if (rest.length !== 2 || !PROVIDERS.includes(provider as Provider)) {
        throw new UsageError('give the provider (provider_a or provider_b) and the login');
      }
      const change = USER_ACTIONS[action as keyof typeof USER_ACTIONS];
      await withDb(config, async (db) => {
        const user = await findUserByLogin(db, provider!, login!.trim().toLowerCase());
        if (!user) throw new Error(`User '${login}' on ${provider} has not signed in yet`);
        await writeTransaction(db, async (trx) => {
          const who = `${user.login} (${user.provider})`;
          if ('banned' in change) {
            await setBanned(trx, user.id, change.banned);
            await cliAudit(trx, 'user.ban', `${change.banned ? 'Banned' : 'Unbanned'} ${who}`, user.id);
          } else {
            await setModerator(trx, user.id, change.is_mod);
            await cliAudit(
              trx,
              'user.moderator',
              `${change.is_mod ? 'Made' : 'Removed'} ${who} ${change.is_mod ? 'a moderator' : 'as moderator'}`,
              user.id,
            );
          }
        });
        console.log(`${action}: ${user.login} (${user.provider}, id ${user.id})`);
      });
    },
  },
  settings: {
    summary: 'Read or change the auth_enabled setting (sign-in required to comment)',
    usage: 'settings get auth_enabled | settings set auth_enabled <true|false>',
    run: async (args, config) => {
      const [action, key, value] = args;
      if (key !== 'auth_enabled') throw new UsageError('the only setting is auth_enabled');
      if (action === 'get' && args.length === 2) {
        const stored = await withDb(config, (db) => getSetting(db, 'auth_enabled'));
        console.log(stored === 'true' ? 'true' : 'false');
        return;
      }
      if (action === 'set' && args.length === 3) {
        const on = parseBool(value);
        await withDb(config, (db) =>
          writeTransaction(db, async (trx) => {
            await setSetting(trx, 'auth_enabled', on ? 'true' : 'false');
            await cliAudit(trx, 'settings.update', `Set auth_enabled to ${on}`);
          }),
        );
        console.log(`auth_enabled = ${on}`);
        return;
      }
      throw new UsageError('use `settings get auth_enabled` or `settings set auth_enabled true|false`');
    },
  },
  export: {
    summary: 'Write all data as JSON (secrets and sessions excepted); `-` writes to stdout',
    usage: 'export <file>',
    run: async (args, config) => {
      if (args.length !== 1) throw new UsageError('give the file to write');
      const data = await withDb(config, (db) => exportData(db));
      writeJson(args[0]!, data);
      if (args[0] !== '-') {
        const counts = Object.entries(data.tables)
          .map(([k, v]) => `${k} ${v.length}`)
          .join(', ');
        console.log(`Exported to ${args[0]}: ${counts}`);
      }
    },
  },
  import: {
    summary: 'Load a JSON export into an empty database (--force replaces existing data)',
    usage: 'import <file> [--force]',
    run: async (args, config) => {
      const force = args.includes('--force');
      const files = args.filter((a) => a !== '--force');
      if (files.length !== 1) throw new UsageError('give the file to read');
      let text: string;
      try {
        text = readFileSync(files[0]!, 'utf8');
      } catch {
        throw new Error(`cannot read ${files[0]}`);
      }
      const file = parseExport(text);
      const counts = await withDb(config, (db) => importData(db, file, force));
      console.log(
        `Imported: ${Object.entries(counts)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
      );
    },
  },
  backup: {
    summary: 'Copy a running SQLite database consistently to a file (PostgreSQL: use pg_dump)',
    usage: 'backup <file>',
    run: async (args, config) => {
      if (args.length !== 1) throw new UsageError('give the file to write');
      await withDb(config, (_db, opened) => backupSqlite(opened, args[0]!));
      console.log(`Backed up to ${args[0]}`);
    },
  },
  demo: {
    summary: 'Fill an empty database with sample streamers, ratings, comments and a team',
    usage: 'demo',
    run: async (args, config) => {
      if (args.length) throw new UsageError('demo takes no arguments');
      const made = await withDb(config, (db) => fillDemo(db, new Date()));
      console.log(
        `Demo data added: ${made.streamers} streamers, ${made.comments} comments, 1 team, 3 users.`,
      );
    },
  },
};
