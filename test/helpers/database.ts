import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Opened } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';

export const dbKind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

export interface TestDatabase extends Opened {
  /** DATABASE_URL for a second instance or a child process on the same database. */
  url: string;
  /**
   * PostgreSQL: the schema holding this database's tables (search_path), for an empty test
   * database; a migrated one is a database of its own, its tables in `public`.
   */
  pgSchema?: string;
  /** PostgreSQL: the `application_name` of this database's connections. */
  pgName?: string;
  cleanup(): Promise<void>;
}

/**
 * Where the SQLite test files go: memory (/dev/shm) where there is one. The files are the
 * same files with the same pragmas (`synchronous = FULL` included), but a commit's fsync
 * costs nothing there: on this machine's disk it took 0.7-2 ms, and the suite commits
 * tens of thousands of times (docs/benchmarks.md "The suite's time").
 */
const SQLITE_DIR = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

/** A fresh, empty database: a temporary SQLite file, or a new schema in TEST_DATABASE_URL. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (dbKind === 'sqlite') return sqliteDatabase();
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const schema = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const opened = openDatabase(base, { pgSchema: schema, poolSize: 5, applicationName: schema });
  const url = withSearchPath(base, schema);
  return {
    ...opened,
    url,
    pgSchema: schema,
    pgName: schema,
    cleanup: async () => {
      await opened.db.destroy();
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      // Another test's schema dropped at the same moment can deadlock on the catalogue: once more.
      for (let attempt = 1; ; attempt++) {
        try {
          await c.query(`drop schema if exists ${schema} cascade`);
          break;
        } catch (err) {
          if ((err as { code?: string }).code !== '40P01' || attempt === 3) throw err;
        }
      }
      await c.end();
    },
  };
}

/** A new SQLite file in its own directory, empty or a copy of `from`. */
function sqliteDatabase(from?: string): TestDatabase {
  const dir = mkdtempSync(join(SQLITE_DIR, 'streamers-test-'));
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
 * finds nothing left to do. PostgreSQL: likewise a copy, of a database migrated once per run
 * (`create database … template`, 0.1-0.4 s, where migrating a new schema took 2.7-7.9 s on a
 * loaded machine; replaying a dump of a migrated schema cost about as much as migrating it).
 * Outside vitest (no template provided), a new schema, migrated. The migration tests use
 * createTestDatabase and migrate from scratch.
 */
export async function createMigratedDatabase(): Promise<TestDatabase> {
  if (dbKind === 'sqlite') return sqliteDatabase(await templateFile());
  const template = providedPgTemplate();
  if (template) return copyOfPgTemplate(template);
  const database = await createTestDatabase();
  await migrateToLatest(database.db);
  return database;
}

/** The run's migrated PostgreSQL database (test/helpers/global-setup.ts), if any. */
function providedPgTemplate(): string | undefined {
  try {
    return inject('pgTemplate') || undefined;
  } catch {
    return undefined; // not in a vitest worker
  }
}

/** Runs `query` on the PostgreSQL server of `base` through a connection of its own. */
export async function onPgServer(base: string, query: string): Promise<void> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(query);
  } finally {
    await admin.end();
  }
}

/** A new database copied from the run's migrated one; its cleanup drops it. */
async function copyOfPgTemplate(template: string): Promise<TestDatabase> {
  const base = process.env.TEST_DATABASE_URL!;
  const name = `${template}_${Math.random().toString(36).slice(2, 10)}`;
  await onPgServer(base, `create database "${name}" template "${template}"`);
  const u = new URL(base);
  u.pathname = `/${name}`;
  const url = u.toString();
  const opened = openDatabase(url, { poolSize: 5, applicationName: name });
  return {
    ...opened,
    url,
    pgName: name,
    // Dropped with the template at the end of the run: a database's drop makes PostgreSQL
    // checkpoint (0.3-8 s on a loaded machine, and every other file's writes wait on it).
    cleanup: () => opened.db.destroy(),
  };
}

/**
 * Makes the run's migrated PostgreSQL database, named after the run's process so that runs
 * side by side on one server keep apart; the copies are named after it (`<template>_…`).
 */
export async function makePgTemplate(base: string): Promise<{ name: string; remove: () => Promise<void> }> {
  const name = `${new URL(base).pathname.slice(1)}_tpl${process.pid}`;
  await onPgServer(base, `drop database if exists "${name}" with (force)`);
  await onPgServer(base, `create database "${name}"`);
  const u = new URL(base);
  u.pathname = `/${name}`;
  const template = openDatabase(u.toString(), { poolSize: 1, applicationName: name });
  try {
    await migrateToLatest(template.db);
  } finally {
    // A template takes no copies while anyone is connected to it.
    await template.db.destroy();
  }
  // Eight drops at a time: each waits for a checkpoint, and drops waiting together share one.
  const remove = async () => {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    const { rows } = await admin
      .query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [
        `${name}_`,
      ])
      .finally(() => admin.end());
    const copies = rows.map((r) => r.datname);
    const dropper = async () => {
      for (let copy = copies.pop(); copy; copy = copies.pop())
        await onPgServer(base, `drop database if exists "${copy}" with (force)`);
    };
    await Promise.all(Array.from({ length: 8 }, dropper));
    await onPgServer(base, `drop database if exists "${name}" with (force)`);
  };
  return { name, remove };
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
      : database.pgSchema
        ? openDatabase(process.env.TEST_DATABASE_URL!, {
            pgSchema: database.pgSchema,
            poolSize: 5,
            applicationName: database.pgName,
          })
        : openDatabase(database.url, { poolSize: 5, applicationName: database.pgName });
  return {
    ...opened,
    url: database.url,
    pgSchema: database.pgSchema,
    pgName: database.pgName,
    cleanup: () => opened.db.destroy(),
  };
}
