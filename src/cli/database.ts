/** The database as the commands use it: opened, migrated, and closed when the command ends. */
import { audit, type AuditAction, type AuditEntry } from '../audit/queries.ts';
import type { Config } from '../config/config.ts';
import { openDatabase, type Opened } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrator.ts';
import type { Db } from '../db/schema.ts';

export async function withDb<T>(config: Config, fn: (db: Db, opened: Opened) => Promise<T>): Promise<T> {
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
