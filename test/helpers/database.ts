import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Opened } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import { keepOrDrop, learnFresh, takeKept, using } from './schema-pool.ts';

export const dbKind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

export interface TestDatabase extends Opened {
  /** DATABASE_URL for a second instance or a child process on the same database. */
  url: string;
  /** PostgreSQL schema holding this database's tables (search_path), if PostgreSQL. */
  pgSchema?: string;
  cleanup(): Promise<void>;
}

/**
 * Where the SQLite test files go: memory (/dev/shm) where there is one. The files are the
 * same files with the same pragmas (`synchronous = FULL` included), but a commit's fsync
 * costs nothing there: on this machine's disk it took 0.7-2 ms, and the suite commits
 * tens of thousands of times (docs/benchmarks.md "The suite's time").
 */
const SQLITE_DIR = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

/**
 * A SQLite test file's directory is named with its process's id: a run killed before its
 * cleanups (Ctrl-C, a killed worker, the mutation runner's stop) leaves its files behind, and
 * the next run removes those of processes that are gone (global-setup.ts).
 */
const TEST_DIR = /^streamers-test-(\d+)-/;

/** Whether a process runs (it may be another user's: EPERM). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the test directories in `dir` whose process is gone; answers their names. */
export function removeLeftovers(dir = SQLITE_DIR, alive = running): string[] {
  const gone = readdirSync(dir).filter((name) => {
    const pid = TEST_DIR.exec(name)?.[1];
    return pid !== undefined && !alive(Number(pid));
  });
  for (const name of gone) rmSync(join(dir, name), { recursive: true, force: true });
  return gone;
}

/** A fresh, empty database: a temporary SQLite file, or a new schema in TEST_DATABASE_URL. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (dbKind === 'sqlite') return sqliteDatabase();
  const base = pgBase();
  const schema = await newSchema(base);
  return pgDatabase(base, schema, (c) => dropSchema(c, schema));
}

async function newSchema(base: string): Promise<string> {
  const schema = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await withAdmin(base, (c) => c.query(`create schema ${schema}`));
  return schema;
}

function pgBase(): string {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  return base;
}

async function withAdmin<T>(base: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A schema's database; its cleanup closes its connections, then `release`s it (once). */
function pgDatabase(base: string, schema: string, release: (c: pg.Client) => Promise<unknown>): TestDatabase {
  using(schema);
  const opened = openDatabase(base, { pgSchema: schema, poolSize: 5, applicationName: schema });
  let released = false;
  return {
    ...opened,
    url: withSearchPath(base, schema),
    pgSchema: schema,
    cleanup: async () => {
      await opened.db.destroy();
      if (released) return;
      released = true;
      await withAdmin(base, release);
    },
  };
}

async function dropSchema(c: pg.Client, schema: string): Promise<void> {
  // Another test's schema dropped at the same moment can deadlock on the catalogue: once more.
  for (let attempt = 1; ; attempt++) {
    try {
      await c.query(`drop schema if exists ${schema} cascade`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '40P01' || attempt === 3) throw err;
    }
  }
}

/** A new SQLite file in its own directory, empty or a copy of `from`. */
function sqliteDatabase(from?: string): TestDatabase {
  const dir = mkdtempSync(join(SQLITE_DIR, `streamers-test-${process.pid}-`));
  const file = join(dir, 'test.db');
  if (from) copyFileSync(from, file);
  const url = `sqlite:${file}`;
  const opened = openDatabase(url);
  return {
    ...opened,
    url,
    cleanup: async () => {
      await opened.db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Migrates a new SQLite file, closed after (its WAL checkpointed in): complete on its own. */
export async function makeSqliteTemplate(): Promise<{ file: string; remove: () => void }> {
  const template = sqliteDatabase();
  await migrateToLatest(template.db);
  await template.db.destroy();
  const file = template.url.slice('sqlite:'.length);
  return { file, remove: () => rmSync(dirname(file), { recursive: true, force: true }) };
}

/** The run's template (test/helpers/global-setup.ts), or, outside vitest, this process's own. */
let sqliteTemplate: Promise<string> | undefined;
function templateFile(): Promise<string> {
  return (sqliteTemplate ??= (async () => {
    try {
      const provided = inject('sqliteTemplate');
      if (provided) return provided;
    } catch {
      // Not in a vitest worker (the bench): make one below.
    }
    const own = await makeSqliteTemplate();
    process.once('exit', own.remove);
    return own.file;
  })());
}

/**
 * A database with every migration applied, for the apps the tests start. SQLite: a copy of a
 * file migrated once per run (copying takes well under a millisecond; the 17 migrations took
 * 40 ms on a quiet machine, several times that when busy). The copy is the file the
 * migrations made, their bookkeeping included, so the app's own migrateToLatest at start
 * finds nothing left to do. PostgreSQL: a schema this worker migrated for an earlier app and
 * made clean again (schema-pool.ts), or else a new schema, migrated (replaying a dump of a
 * migrated schema cost about as much as migrating it). The migration tests use
 * createTestDatabase and migrate from scratch.
 */
export async function createMigratedDatabase(): Promise<TestDatabase> {
  if (dbKind === 'sqlite') return sqliteDatabase(await templateFile());
  const base = pgBase();
  const release = (schema: string) => (c: pg.Client) =>
    keepOrDrop(c, base, schema, () => dropSchema(c, schema));
  const kept = takeKept(base);
  if (kept) return pgDatabase(base, kept, release(kept));
  const schema = await newSchema(base);
  const database = pgDatabase(base, schema, release(schema));
  await migrateToLatest(database.db);
  await withAdmin(base, (c) => learnFresh(c, schema));
  return database;
}

/**
 * PostgreSQL: each test worker works in a database of its own, `<TEST_DATABASE_URL's>_w<N>`,
 * made at its first file (file-setup.ts) and dropped at the end of the run (global-setup.ts);
 * process.env.TEST_DATABASE_URL is pointed at it, so everything the tests start (apps,
 * second instances, the command-line tool) uses it. Files run side by side (vitest.config.ts),
 * and Kysely's migrator reads the tables of every schema in the database
 * (`has_schema_privilege` on each): a schema another file dropped meanwhile failed the
 * migration with `schema "t_..." does not exist`.
 */
export async function useWorkerDatabase(): Promise<void> {
  const base = (process.env.TEST_DATABASE_URL_RUN ??= process.env.TEST_DATABASE_URL);
  if (dbKind !== 'postgres' || !base) return;
  const url = new URL(base);
  const name = `${url.pathname.slice(1)}_w${process.env.VITEST_POOL_ID ?? process.pid}`;
  url.pathname = `/${name}`;
  if (process.env.TEST_DATABASE_URL === url.toString()) return;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  process.env.TEST_DATABASE_URL = url.toString();
}

/** Drops the workers' databases (the end of the run). */
export async function dropWorkerDatabases(base: string): Promise<void> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    const prefix = `${new URL(base).pathname.slice(1)}_w`;
    const { rows } = await admin.query<{ datname: string }>(
      'select datname from pg_database where starts_with(datname, $1)',
      [prefix],
    );
    for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`);
  } finally {
    await admin.end();
  }
}

/** A connection string whose sessions use `schema` (for child processes). */
function withSearchPath(base: string, schema: string): string {
  const u = new URL(base);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

/**
 * A second, independent connection to the same database (another instance's view): its
 * cleanup closes only that connection.
 */
export function reopen(database: TestDatabase): TestDatabase {
  const opened =
    dbKind === 'sqlite'
      ? openDatabase(database.url)
      : openDatabase(process.env.TEST_DATABASE_URL!, {
          pgSchema: database.pgSchema,
          poolSize: 5,
          applicationName: database.pgSchema,
        });
  return { ...opened, url: database.url, pgSchema: database.pgSchema, cleanup: () => opened.db.destroy() };
}
