import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Opened } from '../../src/db/connect.ts';

export const dbKind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

export interface TestDatabase extends Opened {
  /** DATABASE_URL for a second instance or a child process on the same database. */
  url: string;
  /** PostgreSQL schema holding this database's tables (search_path), if PostgreSQL. */
  pgSchema?: string;
  cleanup(): Promise<void>;
}

/** A fresh, empty database: a temporary SQLite file, or a new schema in TEST_DATABASE_URL. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (dbKind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'streamers-test-'));
    const url = `sqlite:${join(dir, 'test.db')}`;
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
    cleanup: async () => {
      await opened.db.destroy();
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
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
