/** The database as the commands use it: opened, migrated, and closed when the command ends. */
import { audit, type AuditAction, type AuditEntry } from '../audit/queries.ts';
import type { Config } from '../config/config.ts';
import { existsSync } from 'node:fs';
import { openDatabase, type Opened } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrator.ts';
import type { Db } from '../db/schema.ts';

/**
 * The commands that act on what a site holds (`users`, `settings`, `export`, `backup`) open only
 * a SQLite file that exists: a mistyped path, or a run from another directory without the
 * configuration, would make an empty database and report success (a nightly backup of nothing).
 * A first start, `migrate`, `import`, `demo` and `admin-password` may make it.
 */
export async function withDb<T>(
  config: Config,
  fn: (db: Db, opened: Opened) => Promise<T>,
  { existing = false } = {},
): Promise<T> {
  const file = config.databaseUrl.startsWith('sqlite:') ? config.databaseUrl.slice('sqlite:'.length) : null;
  if (existing && file !== null && file !== ':memory:' && !existsSync(file)) {
    throw new Error(
      `no database at ${file} (DATABASE_URL): start the service once there, or set DATABASE_URL`,
    );
  }
  const opened = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(opened.db);
    return await fn(opened.db, opened);
  } finally {
    await opened.db.destroy();
  }
}

/** The command line acts as the operator; its changes go to the audit log like the admin's. */
export const cliAudit = <A extends AuditAction>(db: Db, entry: AuditEntry<A>) =>
  audit(db, { actor: 'cli', actor_user_id: null, at: new Date().toISOString() }, entry);
