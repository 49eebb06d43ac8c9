import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrator.ts';
import { startApp } from './helpers/app.ts';
import { createMigratedDatabase, createTestDatabase, dbKind, reopen } from './helpers/database.ts';
import { fingerprint } from './helpers/schema-pool.ts';

/**
 * PostgreSQL: a migrated schema whose app is closed is kept for the worker's next app, made
 * clean (test/helpers/schema-pool.ts). Clean is exactly what a freshly migrated schema is;
 * a schema something still connects to, or whose catalogue a test changed, is dropped.
 */
describe.runIf(dbKind === 'postgres')('migrated schemas reused within a test worker', () => {
  // A connection of its own for each look: one left open would keep any schema from being kept.
  const look = async <T>(fn: (admin: pg.Client) => Promise<T>): Promise<T> => {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      return await fn(admin);
    } finally {
      await admin.end();
    }
  };

  const exists = (schema: string) =>
    look(async (admin) => {
      const { rowCount } = await admin.query('select from pg_namespace where nspname = $1', [schema]);
      return rowCount === 1;
    });

  /** Every table's rows (the migrations' own times left out) and every sequence's state. */
  const contents = (schema: string) =>
    look(async (admin) => {
      const { rows: tables } = await admin.query<{ name: string }>(
        `select tablename as name from pg_tables where schemaname = $1 order by tablename`,
        [schema],
      );
      const out: Record<string, unknown> = {};
      for (const { name } of tables) {
        const { rows } = await admin.query<{ r: Record<string, unknown> }>(
          `select to_jsonb(x) - 'timestamp' as r from ${schema}.${pg.escapeIdentifier(name)} x`,
        );
        out[name] = rows.map((row) => JSON.stringify(row.r)).sort();
      }
      const { rows: sequences } = await admin.query(
        `select sequencename, last_value from pg_sequences where schemaname = $1 order by sequencename`,
        [schema],
      );
      return { tables: out, sequences };
    });

  // Retried: another connection to the worker's database that is none of this process's pools
  // (an earlier file's child process, still exiting) could outlast the 2 s the pool waits on a
  // loaded machine, and the schema is then rightly dropped, not kept. An earlier file's own pool
  // did so twice (stops 107 and 108), before connections named after another schema of the
  // worker stopped counting (the next test). The retry starts again from a new app.
  it(
    'a kept schema holds what a fresh one does: the migrations’ rows, empty tables, identities from 1',
    { retry: 2 },
    async () => {
      const first = await startApp();
      const schema = first.database.pgSchema!;
      const admin1 = await first.sharedAdmin();
      const sid = await first.streamer('Before', { s: 5, g: 5, a: 5, v: 5 });
      await first.streamer('Before too');
      expect((await admin1.post('/api/comments', { streamer_id: sid, body: 'A comment' })).status).toBe(201);
      const user = await first.user();
      await (await first.signedIn(user)).post('/api/comments', { streamer_id: sid, body: 'Another' });
      await first.close();

      // The next migrated database is that schema, before any app starts on it (an app writes
      // its own rows at start: its push keys).
      const again = await createMigratedDatabase();
      const fresh = await createTestDatabase();
      try {
        expect(again.pgSchema).toBe(schema);
        await migrateToLatest(fresh.db);
        const seen = await contents(schema);
        expect(seen).toEqual(await contents(fresh.pgSchema!));
        expect(Object.values(seen.tables).some((rows) => (rows as string[]).length > 0)).toBe(true);
        const digests = await look(async (admin) => [
          await fingerprint(admin, schema),
          await fingerprint(admin, fresh.pgSchema!),
        ]);
        expect(digests[0]).toBe(digests[1]);
      } finally {
        await fresh.cleanup();
      }
      const second = await startApp({}, { database: again });
      try {
        expect((await second.client().get('/api/streamers')).body).toEqual([]);
        expect(await second.streamer('After')).toBe(1);
        const user = await second.user();
        expect(user.id).toBe(1);
        const signedIn = await second.signedIn(user);
        const after = await signedIn.post('/api/comments', { streamer_id: 1, body: 'First again' });
        expect([after.status, after.body.id]).toEqual([201, 1]);
      } finally {
        await second.close();
        await again.cleanup();
      }
    },
  );

  it('a schema whose catalogue a test changed is dropped, not kept', async () => {
    const t = await startApp();
    const schema = t.database.pgSchema!;
    await t.database.db.schema.alterTable('comments').addColumn('extra', 'integer').execute();
    await t.close();
    expect(await exists(schema)).toBe(false);
    const next = await startApp();
    expect(next.database.pgSchema).not.toBe(schema);
    await next.close();
  });

  it('a connection another of the worker’s schemas left behind keeps no schema from being kept', async () => {
    // An earlier app's pool, closed but with a server process still there on a loaded machine,
    // once outlasted every wait (stops 107 and 108): it is named after its own schema, and
    // writes to no other.
    const [earlier, t] = [await startApp(), await startApp()];
    const schema = t.database.pgSchema!;
    await earlier.close();
    const left = new pg.Client({
      connectionString: earlier.database.url,
      application_name: earlier.database.pgSchema!,
    });
    await left.connect();
    try {
      await t.close();
      expect(await exists(schema)).toBe(true);
      const next = await createMigratedDatabase();
      expect(next.pgSchema).toBe(schema);
      await next.cleanup();
    } finally {
      await left.end();
    }
  });

  it('a schema a second instance or another process still connects to is dropped, not kept', async () => {
    for (const other of ['instance', 'process'] as const) {
      const t = await startApp();
      const schema = t.database.pgSchema!;
      const second = reopen(t.database);
      const child = new pg.Client({ connectionString: t.database.url, application_name: 'streamer-rating' });
      if (other === 'instance') await second.db.selectFrom('streamers').selectAll().execute();
      else await child.connect();
      await t.close();
      expect([other, await exists(schema)]).toEqual([other, false]);
      await second.cleanup();
      if (other === 'process') await child.end();
    }
  });
});
