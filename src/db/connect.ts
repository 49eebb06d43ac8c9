import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { type SqliteDatabase as SqliteDialectDatabase, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type pg from 'pg';
import { SqliteDatabase, type SqliteStatement } from './sqlite-driver.ts';
import { dbContext, type DbContext } from './context.ts';
import type { Database } from './schema.ts';

export interface OpenOptions {
  /** Called with errors of idle PostgreSQL clients, which must never crash the process. */
  onPoolError?: (err: Error) => void;
  /** PostgreSQL schema to use instead of `public` (tests isolate themselves this way). */
  pgSchema?: string;
  poolSize?: number;
  /** PostgreSQL application_name, shown in pg_stat_activity. */
  applicationName?: string;
}

/** An opened database is its context: the handle and what this process keeps about it. */
export type Opened = DbContext;

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
  // A page cache of 4 MiB, not better-sqlite3's 16 MiB: hot answers come from the rendered
  // cache, the other reads from the operating system's file cache, and the 12 MiB are the
  // difference between staying under the 150 MiB budget and not while comments pour in.
  'cache_size = -4000',
] as const;

const require = createRequire(import.meta.url);

/** The PostgreSQL driver, loaded only by a service that uses PostgreSQL (a faster SQLite start). */
export function pgDriver(): typeof pg {
  return require('pg') as typeof pg;
}

/** Prepared statements kept per SQLite handle: the hot queries are prepared once. */
const STATEMENTS = 256;

/**
 * The handle as Kysely sees it, with its statements cached by SQL text (most recently used
 * kept, at most STATEMENTS): preparing costs more than running most of this service's
 * queries. Kysely runs one query at a time on the connection, so a cached statement is
 * never in use twice at once.
 */
export function cachingStatements(sqlite: SqliteDatabase): SqliteDialectDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (stmt) {
        cache.delete(sql);
      } else {
        stmt = sqlite.prepare(sql);
        if (cache.size >= STATEMENTS) cache.delete(cache.keys().next().value ?? '');
      }
      cache.set(sql, stmt);
      return stmt;
    },
  };
}

export function openDatabase(url: string, options: OpenOptions = {}): Opened {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const sqlite = new SqliteDatabase(file);
    for (const pragma of SQLITE_PRAGMAS) sqlite.pragma(pragma);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingStatements(sqlite) }) });
    return dbContext(db, 'sqlite', { sqlite });
  }

  const pool = new (pgDriver().Pool)({
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
  return dbContext(db, 'postgres', { pool });
}
