import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type SqliteDatabase, sqliteDriver } from '../../../src/db/sqlite-driver.ts';
import pg from 'pg';

export type DbKind = 'sqlite' | 'postgres';

/** The harness's own connections carry this name, so that terminating backends spares them. */
const HARNESS = 'soak-harness';

/**
 * The PostgreSQL server the scenarios use: SOAK_DATABASE_URL, else TEST_DATABASE_URL (what
 * `npm test` uses), else the local server. Each scenario makes its own database in it.
 */
export function postgresBaseUrl(): string {
  return (
    process.env.SOAK_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/postgres'
  );
}

/** A fresh database for one scenario, and what the scenario checks in it. */
export interface SoakDatabase {
  kind: DbKind;
  /** DATABASE_URL for the service. */
  url: string;
  /** A DATABASE_URL for another fresh, empty database on the same server (new file, new schema). */
  fresh(): Promise<string>;
  count(table: string): Promise<number>;
  /** `PRAGMA integrity_check` on SQLite (open the file while no server runs); `ok` when fine. */
  integrity(): Promise<string>;
  /** Terminates the service's backends in this database; how many. */
  terminateBackends(): Promise<number>;
  cleanup(): Promise<void>;
}

export async function createDatabase(kind: DbKind): Promise<SoakDatabase> {
  return kind === 'sqlite' ? createSqlite() : createPostgres();
}

export function createSqlite(): SoakDatabase & { file: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'soak-'));
  const file = join(dir, 'streamers.db');
  let n = 0;
  const query = <T>(fn: (db: SqliteDatabase) => T): T => {
    const db = new (sqliteDriver())(file, { fileMustExist: true });
    try {
      return fn(db);
    } finally {
      db.close();
    }
  };
  return {
    kind: 'sqlite',
    file,
    dir,
    url: `sqlite:${file}`,
    fresh: async () => `sqlite:${join(dir, `fresh-${++n}.db`)}`,
    count: async (table) =>
      query((db) => (db.prepare(`select count(*) as n from "${table}"`).get() as { n: number }).n),
    integrity: async () =>
      query((db) =>
        (db.pragma('integrity_check') as { integrity_check: string }[])
          .map((r) => r.integrity_check)
          .join('; '),
      ),
    terminateBackends: async () => 0,
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A client of the harness (not of the service) on a PostgreSQL database. */
export async function pgClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: HARNESS });
  client.on('error', () => {}); // a restart under test may drop it; the next call reports
  await client.connect();
  return client;
}

async function pgQuery<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) {
  const client = await pgClient(url);
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

function withDatabase(base: string, name: string): string {
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A new PostgreSQL database, so that terminating backends only ever hits this scenario's. */
export async function createPostgres(): Promise<SoakDatabase> {
  const base = postgresBaseUrl();
  const name = `soak_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  for (let attempt = 1; ; attempt++) {
    try {
      await pgQuery(base, `create database ${name}`);
      break;
    } catch (err) {
      // "source database template1 is being accessed by other users": another test's moment
      if (attempt >= 5) throw err;
      await sleep(500);
    }
  }
  const url = withDatabase(base, name);
  let n = 0;
  return {
    kind: 'postgres',
    url,
    fresh: async () => {
      const schema = `fresh_${++n}`;
      await pgQuery(url, `create schema ${schema}`);
      const u = new URL(url);
      u.searchParams.set('options', `-c search_path=${schema}`);
      return u.toString();
    },
    count: async (table) =>
      Number((await pgQuery<{ n: string }>(url, `select count(*) as n from "${table}"`))[0]?.n),
    integrity: async () => 'ok',
    terminateBackends: async () =>
      (
        await pgQuery(
          base,
          `select pg_terminate_backend(pid) from pg_stat_activity
            where datname = $1 and pid <> pg_backend_pid() and application_name <> $2`,
          [name, HARNESS],
        )
      ).length,
    cleanup: async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          await pgQuery(base, `drop database if exists ${name} with (force)`);
          return;
        } catch (err) {
          if (attempt >= 10) throw err;
          await sleep(1000); // the server may just be coming back from a restart
        }
      }
    },
  };
}

/** Whether PostgreSQL answers (pg_isready). */
export function postgresAnswers(): boolean {
  const u = new URL(postgresBaseUrl());
  try {
    execFileSync('pg_isready', ['-q', '-h', u.hostname, '-p', u.port || '5432'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops or starts the local PostgreSQL cluster (full soak only: other tests share it). The
 * cluster's version is the one directory under /etc/postgresql.
 */
export function postgresCluster(action: 'stop' | 'start'): void {
  const [version] = readdirSync('/etc/postgresql');
  if (!version) throw new Error('no PostgreSQL cluster under /etc/postgresql');
  const args = [
    '--skip-systemctl-redirect',
    version,
    'main',
    action,
    ...(action === 'stop' ? ['-m', 'fast'] : []),
  ];
  execFileSync('pg_ctlcluster', args, { stdio: 'pipe' });
}

/** Starts PostgreSQL if it does not answer, and waits (up to 60 s) until it does. */
export async function ensurePostgresUp(): Promise<void> {
  if (postgresAnswers()) return;
  try {
    postgresCluster('start');
  } catch {
    // already starting, or started by someone else meanwhile: wait below
  }
  for (let i = 0; i < 120 && !postgresAnswers(); i++) await sleep(500);
  if (!postgresAnswers()) throw new Error('PostgreSQL did not come back within 60 s');
}
