import { type ColumnDefinitionBuilder, SqliteAdapter } from 'kysely';

/**
 * The few places where SQLite and PostgreSQL differ, each in one small function, so that
 * queries elsewhere stay the same for both.
 */

export function isSqlite(db: { getExecutor(): { adapter: unknown } }): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/** The one schema difference: how an auto-incrementing integer key is declared. */
export function idColumn(db: { getExecutor(): { adapter: unknown } }) {
  return isSqlite(db)
    ? (['integer', (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement()] as const)
    : (['serial', (c: ColumnDefinitionBuilder) => c.primaryKey()] as const);
}

interface DriverError {
  code?: unknown;
  message?: unknown;
}

export function isUniqueViolation(err: unknown): boolean {
  const code = (err as DriverError)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08003', '08006']);
const NET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND']);

/** The database is busy or unreachable: the client gets 503 and may retry. */
export function isUnavailable(err: unknown): boolean {
  const { code, message } = (err ?? {}) as DriverError;
  if (typeof code === 'string') {
    if (PG_UNAVAILABLE.has(code) || NET_ERRORS.has(code)) return true;
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return true;
  }
  return (
    typeof message === 'string' &&
    /Connection terminated|connection timeout|Client has encountered a connection error/i.test(message)
  );
}
