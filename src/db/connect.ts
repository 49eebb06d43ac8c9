import { closeSync, mkdirSync, openSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { type SqliteDatabase as SqliteDialectDatabase, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { type SqliteDatabase, type SqliteStatement, sqliteDriver } from './sqlite-driver.ts';
import { dbContext, type DbContext } from './context.ts';
import { pgDriver } from './pg-driver.ts';
import { preparingPool } from './prepared.ts';
import type { Database } from './schema.ts';

export interface OpenOptions {
  /** Called with errors of idle PostgreSQL clients, which must never crash the process. */
  onPoolError?: (err: Error) => void;
  /** Called when the PostgreSQL pool has opened a connection (the first ones, and each replacement). */
  onPoolConnect?: () => void;
  /** PostgreSQL schema to use instead of `public` (tests isolate themselves this way). */
  pgSchema?: string;
  poolSize?: number;
  /** PostgreSQL application_name, shown in pg_stat_activity. */
  applicationName?: string;
}

/** An opened database is its context: the handle and what this process keeps about it. */
export type Opened = DbContext;

/**
 * SQLite runs in WAL mode with foreign keys on and a 5-second busy timeout (set first, so that
 * everything after it waits for a lock rather than failing). `synchronous` is
 * FULL: every acknowledged write survives a crash of the machine, not only of the process;
 * the price (one fsync per commit) is small for a site whose writes are comments and ratings.
 */
export const BUSY_TIMEOUT = 'busy_timeout = 5000';
/** Set in this order, the busy timeout first; `journal_mode = WAL` by switchToWal. */
export const SQLITE_PRAGMAS = [
  BUSY_TIMEOUT,
  'journal_mode = WAL',
  'foreign_keys = ON',
  'synchronous = FULL',
  // After a checkpoint that starts the WAL over, its file shrinks back to this size.
  'journal_size_limit = 8388608',
  // A page cache of 4 MiB, not better-sqlite3's 16 MiB: hot answers come from the rendered
  // cache, the other reads from the operating system's file cache, and the 12 MiB are the
  // difference between staying under the 150 MiB budget and not while comments pour in.
  'cache_size = -4000',
] as const;

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

/** How long opening waits for other processes to let go of a file it switches to WAL. */
export const WAL_SWITCH_WAIT_MS = 60_000;

const pause = new Int32Array(new SharedArrayBuffer(4));
/** Opening is synchronous (better-sqlite3): the wait is too. It happens before serving. */
const sleepSync = (ms: number) => Atomics.wait(pause, 0, 0, ms);

/**
 * `journal_mode = WAL`, waiting for the lock it needs. A fresh file is switched by the first
 * connection that asks, which needs the file to itself: SQLite answers SQLITE_BUSY at once,
 * without the busy timeout, while another process has it open (several instances started
 * together on a fresh file; issue 30, item 8). Tried again with short growing pauses until it
 * reports WAL, so that a start waits instead of exiting with `database is locked`.
 */
function switchToWal(sqlite: SqliteDatabase, file: string): void {
  if (sqlite.memory) {
    sqlite.pragma('journal_mode = WAL');
    return;
  }
  const deadline = Date.now() + WAL_SWITCH_WAIT_MS;
  for (let wait = 5; ; wait = Math.min(wait * 2, 250)) {
    try {
      if (sqlite.pragma('journal_mode = WAL', { simple: true }) === 'wal') return;
    } catch (err) {
      if (!String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY')) throw err;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${file} could not be switched to WAL in ${WAL_SWITCH_WAIT_MS / 1000} s: another process holds it`,
      );
    }
    sleepSync(wait + Math.random() * wait);
  }
}

/**
 * PostgreSQL's JIT compiler off for the service's connections: it compiles a statement whose
 * estimated cost passes `jit_above_cost`, some 100 ms of LLVM for a statement that runs in one.
 * Once the comments were analysed with one address behind most guest posts, the rules of a group
 * of posts were estimated at 147,000 and compiled at every group (docs/benchmarks.md, stop 55).
 */
export const JIT_OFF = '-c jit=off';

/**
 * The connection string without its `options` parameter (node-postgres lets it override the
 * pool's), and the server options: JIT_OFF, the string's own, and the schema's search path.
 */
function withJitOff(url: string, pgSchema?: string): { connectionString: string; options: string } {
  const extra = pgSchema ? [`-c search_path=${pgSchema}`] : [];
  try {
    const parsed = new URL(url);
    const own = parsed.searchParams.get('options');
    parsed.searchParams.delete('options');
    return {
      connectionString: parsed.toString(),
      options: [JIT_OFF, own ?? '', ...extra].filter(Boolean).join(' '),
    };
  } catch {
    // Not a URL that WHATWG parses: given to node-postgres as it is.
    return { connectionString: url, options: [JIT_OFF, ...extra].join(' ') };
  }
}

/**
 * The SQLite file with the service's pragmas. A file or directory the service's user may not
 * write fails here: said with the file's path, which SQLite's own message leaves out.
 */
function openSqlite(file: string): SqliteDatabase {
  let sqlite: SqliteDatabase | undefined;
  try {
    if (file !== ':memory:') {
      // The database holds sessions and the administrator's hash: a new directory and file are
      // the service's user's alone (SQLite gives its -wal and -shm files the file's mode), as
      // the backups are, also without systemd's UMask.
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      closeSync(openSync(file, 'a', 0o600));
    }
    sqlite = new (sqliteDriver())(file);
    for (const pragma of SQLITE_PRAGMAS) {
      if (pragma === 'journal_mode = WAL') switchToWal(sqlite, file);
      else sqlite.pragma(pragma);
    }
    return sqlite;
  } catch (err) {
    // A file opened whose pragmas failed is let go, not held open by a process that goes on.
    sqlite?.close();
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(`cannot open the SQLite database ${file} (DATABASE_URL): ${why}; ${openHint(file)}`, {
      cause: err,
    });
  }
}

/** Less room than this on the file's disk: a failed open is said as the full disk it likely is. */
export const FULL_DISK_BYTES = 1024 * 1024;

/**
 * What to check when the file does not open: a full disk (SQLite then cannot make the -wal and
 * -shm files a clean stop removed, and says only "disk I/O error"), else the user's rights.
 */
function openHint(file: string): string {
  try {
    const disk = statfsSync(dirname(file));
    const free = disk.bavail * disk.bsize;
    if (free < FULL_DISK_BYTES) return `the disk that holds it is full (${Math.floor(free / 1024)} KiB free)`;
  } catch {
    // No directory to ask: the rights are the question.
  }
  return "may the service's user write it and its directory?";
}

export function openDatabase(url: string, opts: OpenOptions = {}): Opened {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    const sqlite = openSqlite(file);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingStatements(sqlite) }) });
    return dbContext(db, 'sqlite', { sqlite });
  }

  const driver = pgDriver();
  const { connectionString, options } = withJitOff(url, opts.pgSchema);
  const pool = new driver.Pool({
    connectionString,
    max: opts.poolSize ?? 10,
    connectionTimeoutMillis: 5000,
    application_name: opts.applicationName ?? 'streamer-rating',
    options,
    // A query is sent without waiting for the answer to the one before it on the connection:
    // a group's BEGIN goes out with its first query, its staged events with its COMMIT (db/pipeline.ts).
    // Kysely itself still sends a connection's queries one at a time.
    pipeline: true,
  });
  // A backend can end at any time (restart, pg_terminate_backend). Idle clients report it on
  // the pool; a client checked out by a query or transaction reports it on itself, and an
  // 'error' event without a listener would end the process. The query in flight still fails
  // (and its request gets a 503); the pool discards the broken client.
  // An idle client reports its end twice, on itself and on the pool: said once a connection.
  const reported = new WeakSet<object>();
  const onError = (err: Error, client: object) => {
    if (reported.has(client)) return;
    reported.add(client);
    opts.onPoolError?.(err);
  };
  pool.on('error', onError);
  pool.on('connect', (client) => {
    client.on('error', (err: Error) => onError(err, client));
    opts.onPoolConnect?.();
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) });
  return dbContext(db, 'postgres', { pool });
}
