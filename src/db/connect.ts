import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { SqliteDatabase } from './sqlite-driver.ts';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database, Db } from './schema.ts';

export interface OpenOptions {
  /** Called with errors of idle PostgreSQL clients, which must never crash the process. */
  onPoolError?: (err: Error) => void;
  /** PostgreSQL schema to use instead of `public` (tests isolate themselves this way). */
  pgSchema?: string;
  poolSize?: number;
  /** PostgreSQL application_name, shown in pg_stat_activity. */
  applicationName?: string;
}

export interface Opened {
  db: Db;
  kind: 'sqlite' | 'postgres';
  /** The SQLite handle, for pragmas, checkpoints and online backups. */
  sqlite?: SqliteDatabase;
}

/**
 * SQLite runs in WAL mode with foreign keys on and a 5-second busy timeout. `synchronous` is
 * FULL: every acknowledged write survives a crash of the machine, not only of the process;
 * the price (one fsync per commit) is small for a site whose writes are comments and ratings.
 */
export const BUSY_TIMEOUT = 'busy_timeout = 5000';
export const SQLITE_PRAGMAS = [
  'journal_mode = WAL',
  'foreign_keys = ON',
  BUSY_TIMEOUT,
  'synchronous = FULL',
  // After a checkpoint that starts the WAL over, its file shrinks back to this size.
  'journal_size_limit = 8388608',
] as const;

export function openDatabase(url: string, options: OpenOptions = {}): Opened {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const sqlite = new SqliteDatabase(file);
    for (const pragma of SQLITE_PRAGMAS) sqlite.pragma(pragma);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    return { db, kind: 'sqlite', sqlite };
  }

  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5000,
    application_name: options.applicationName ?? 'streamer-rating',
    ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
  });
  // A backend can end at any time (restart, pg_terminate_backend). Idle clients report it on
  // the pool; a client checked out by a query or transaction reports it on itself, and an
  // 'error' event without a listener would end the process. The query in flight still fails
  // (and its request gets a 503); the pool discards the broken client.
  const onError = (err: Error) => options.onPoolError?.(err);
  pool.on('error', onError);
  pool.on('connect', (client) => client.on('error', onError));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgres' };
}
