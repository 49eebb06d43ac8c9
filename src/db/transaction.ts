import { sql } from 'kysely';
import { isSqlite } from './dialect.ts';
import type { Db } from './schema.ts';

/**
 * Runs `fn` in a write transaction. On SQLite the transaction begins IMMEDIATE: it takes the
 * write lock up front, so a second process waits on the busy timeout instead of failing with
 * SQLITE_BUSY when a read inside the transaction would later need upgrading to a write.
 */
export async function writeTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (!isSqlite(db)) return db.transaction().execute(fn);
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (err) {
      await sql`rollback`.execute(conn);
      throw err;
    }
  });
}
