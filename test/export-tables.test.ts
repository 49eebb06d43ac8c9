import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { EXPORTED_TABLES, exportData, importData, NOT_EXPORTED, parseExport } from '../src/cli/data.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import type { Db } from '../src/db/schema.ts';
import { useApp } from './helpers/app.ts';
import { createTestDatabase, dbKind, type TestDatabase } from './helpers/database.ts';

/** Issue 30 item 9: every table of user data goes through export and import. */
const t = await useApp();
const others: TestDatabase[] = [];
afterAll(async () => {
  for (const d of others) await d.cleanup();
});

/** The database's own list of its tables, the migrator's bookkeeping aside. */
async function tablesOf(db: Db): Promise<string[]> {
  const rows =
    dbKind === 'sqlite'
      ? await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)
      : await sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(
          db,
        );
  return rows.rows
    .map((r) => r.name)
    .filter((n) => !n.startsWith('kysely_'))
    .sort();
}

const sorted = (rows: Record<string, unknown>[]) =>
  rows.map((r) => JSON.stringify(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)))).sort();

describe('export and import', () => {
  it('every table of the database is exported or named as left out on purpose', async () => {
    const listed = [...EXPORTED_TABLES, ...Object.keys(NOT_EXPORTED)].sort();
    expect(await tablesOf(t.db)).toEqual(listed);
  });

  it("a round trip keeps every exported table's rows: votes, likes and rating history included", async () => {
    const admin = await t.admin();
    const sid = await t.streamer('Round Trip', { s: 3 });
    await admin.put(`/api/streamers?id=${sid}`, { r: { s: 6 }, reward: 10 });
    const u = await t.user();
    const c = await t.signedIn(u);
    expect((await c.put(`/api/votes?streamer_id=${sid}`, { score: 7 })).status).toBe(200);
    const comment = await c.post('/api/comments', { streamer_id: sid, body: 'liked words' });
    expect((await c.put(`/api/comments?id=${comment.body.id}&like=1`, { liked: true })).status).toBe(200);

    const file = parseExport(JSON.stringify(await exportData(t.db)));
    for (const table of ['votes', 'comment_likes', 'rating_history'] as const) {
      expect(file.tables[table].length, table).toBeGreaterThan(0);
    }
    const target = await createTestDatabase();
    others.push(target);
    await migrateToLatest(target.db);
    await importData(target, file, true);
    for (const table of EXPORTED_TABLES) {
      const [a, b] = await Promise.all(
        [t.db, target.db].map((db) => db.selectFrom(table).selectAll().execute()),
      );
      expect(sorted(b as Record<string, unknown>[]), table).toEqual(sorted(a as Record<string, unknown>[]));
    }
  });
});
