import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { EXPORTED_TABLES } from '../src/cli/data.ts';
import { openDatabase } from '../src/db/connect.ts';
import type { Db } from '../src/db/schema.ts';
import { startApp } from './helpers/app.ts';
import { app, cli, dir, TOOL } from './helpers/cli.ts';
import { dbKind, type TestDatabase } from './helpers/database.ts';

/**
 * Issue 30 item 9: the documented way from SQLite to PostgreSQL (`export` on the old server,
 * `import` on the new one) keeps every row of every exported table, and the new database
 * goes on from there: new rows get ids past the imported ones.
 */
const base = process.env.TEST_DATABASE_URL;
const throwaway = `export_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;

async function admin(sqlText: string): Promise<void> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    await c.query(sqlText);
  } finally {
    await c.end();
  }
}

const targetUrl = () => {
  const u = new URL(base!);
  u.pathname = `/${throwaway}`;
  return u.toString();
};

function tool(url: string, args: string[]) {
  const r = spawnSync(process.execPath, [...TOOL, ...args], {
    env: { ...process.env, DATABASE_URL: url, BASE_URL: 'http://localhost:3000', ADMIN_PASSWORD: '' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, err: r.stderr };
}

const sorted = (rows: Record<string, unknown>[]) =>
  rows.map((r) => JSON.stringify(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)))).sort();

/** Rows of every kind the service keeps, made through the API where one makes them. */
async function fill(source: TestDatabase): Promise<void> {
  const a = await app(source);
  expect(cli(source, ['demo']).code).toBe(0);
  const staff = await a.admin();
  const sid = await a.streamer('Moved Streamer', { s: 3 });
  await staff.put(`/api/streamers?id=${sid}`, { r: { s: 6 }, reward: 10 });
  const u = await a.user({ login: 'mover', display_name: 'Mover' });
  const v = await a.user({ login: 'replier', display_name: 'Replier' });
  const c = await a.signedIn(u);
  const d = await a.signedIn(v);
  expect((await c.put(`/api/votes?streamer_id=${sid}`, { score: 7 })).status).toBe(200);
  expect((await c.put(`/api/follows?streamer_id=${sid}`, { follow: true })).status).toBe(200);
  const comment = await c.post('/api/comments', { streamer_id: sid, body: 'moved words' });
  expect((await d.put(`/api/comments?id=${comment.body.id}&like=1`, { liked: true })).status).toBe(200);
  await d.post('/api/comments', { streamer_id: sid, body: 'a reply', reply_to: comment.body.id });
  const guest = await a
    .client()
    .post('/api/comments', { streamer_id: sid, body: 'guest words', author: 'G' });
  await d.post('/api/reports', { comment_id: guest.body.id, reason: 'spam' });
  await staff.post('/api/moderation/blocks', { comment_id: guest.body.id, days: 1 });
  await staff.put('/api/settings', { auth_enabled: true });
  const team = (await staff.get('/api/rater_groups')).body[0];
  await staff.post('/api/rater_groups?members=1', { group_id: team.id, login: 'mover' });
  expect((await c.put('/api/community_ratings', { group_id: team.id, r: { s: 4, g: 5 } })).status).toBe(200);
  await a.close();

  // What live sync and bans write, as they write it.
  const { db } = source;
  const at = '2026-11-20T10:00:00.000Z';
  const { rating_at } = await db
    .selectFrom('rating_history')
    .select('at as rating_at')
    .where('streamer_id', '=', sid)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('streamer_replies')
    .values({ streamer_id: sid, user_id: u.id, body: 'my reply', at, rating_at })
    .execute();
  const stream = await db
    .insertInto('streams')
    .values({ streamer_id: sid, started_at: at, ended_at: null, last_seen_at: at, viewer_sum: 3_000_000_000 })
    .returning('id')
    .executeTakeFirstOrThrow();
  // A followed streamer's stream started: its `live` notification names the stream.
  await db
    .insertInto('notifications')
    .values({ user_id: u.id, kind: 'live', streamer_id: sid, stream_id: stream.id, created_at: at })
    .execute();
  await db
    .insertInto('stream_samples')
    .values({ stream_id: stream.id, at, viewers: 12, game: 'Chess', title: 'Live' })
    .execute();
  await db
    .insertInto('stream_stats')
    .values({
      streamer_id: sid,
      streams: 1,
      seconds: 60,
      samples: 1,
      viewer_sum: 3_000_000_000,
      peak_viewers: 12,
      top_game: 'Chess',
      oldest_start: at,
    })
    .execute();
  await db
    .insertInto('user_addresses')
    .values({ user_id: u.id, guest_tag: 'a'.repeat(64), seen_at: at })
    .execute();
  const tomb = await db
    .insertInto('ban_tombstones')
    .values({ provider: 'provider_a', provider_id: 'gone-1', created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('ban_addresses')
    .values({ tombstone_id: tomb.id, guest_tag: 'b'.repeat(64), expires_at: at })
    .execute();
  // The fifth wave's tables: words, mail choices, a hand-kept schedule, reviews.
  await db.insertInto('hold_words').values({ position: 0, word: 'Free coins', fold: 'free colns' }).execute();
  await db
    .insertInto('mail_settings')
    .values({ user_id: u.id, email: 'mover@example.org', pending_email: null, due_at: null, updated_at: at })
    .execute();
  await db
    .insertInto('schedules')
    .values({ streamer_id: sid, source: 'manual', vacation_start: null, vacation_end: null, read_at: null })
    .execute();
  await db
    .insertInto('schedule_segments')
    .values({
      streamer_id: sid,
      start_at: at,
      end_at: new Date(Date.parse(at) + 3_600_000).toISOString(),
      uid: 'u1',
      title: 'Chess',
      game: '',
      canceled: 0,
    })
    .execute();
  await db
    .insertInto('staff_reviews')
    .values({
      streamer_id: sid,
      user_id: null,
      abstain: 1,
      s: null,
      g: null,
      a: null,
      v: null,
      n: null,
      ns: null,
      o: null,
      note: 'friend',
      at,
    })
    .execute();
  await db
    .insertInto('rerating_requests')
    .values({ streamer_id: sid, user_id: u.id, reason: 'a new season began', at, closed_at: null })
    .execute();
  await db.insertInto('review_publishes').values({ streamer_id: sid, at }).execute();
}

/**
 * Rows as the service reads them: a PostgreSQL bigint comes as a string, which the service
 * reads through Number() (db/schema/streams.ts), so a column that holds numbers on SQLite
 * is compared as numbers.
 */
function comparable(rows: Record<string, unknown>[], numeric: Set<string>): string[] {
  return sorted(
    rows.map((r) =>
      Object.fromEntries(
        Object.entries(r).map(([k, v]) => [k, numeric.has(k) && typeof v === 'string' ? Number(v) : v]),
      ),
    ),
  );
}

describe.runIf(dbKind === 'postgres' && Boolean(base))(
  'from SQLite to PostgreSQL',
  { timeout: 180_000 },
  () => {
    const cleanups: TestDatabase[] = [];
    afterAll(async () => {
      for (const d of cleanups) await d.cleanup();
      await admin(`drop database if exists ${throwaway} with (force)`);
    });

    it('export from SQLite and import into a fresh PostgreSQL keep every row of every table', async () => {
      // The old server's SQLite file (this run's other databases are PostgreSQL).
      const sourceUrl = `sqlite:${join(dir, 'old-server.db')}`;
      const old = openDatabase(sourceUrl);
      const source: TestDatabase = { ...old, url: sourceUrl, cleanup: () => old.db.destroy() };
      cleanups.push(source);
      await fill(source);
      const empty: string[] = [];
      for (const table of EXPORTED_TABLES) {
        if ((await source.db.selectFrom(table).selectAll().execute()).length === 0) empty.push(table);
      }
      expect(empty, 'tables the test leaves empty').toEqual([]);

      const file = join(dir, 'to-postgres.json');
      expect(cli(source, ['export', file]).code).toBe(0);
      await admin(`create database ${throwaway}`);
      const url = targetUrl();
      const migrated = tool(url, ['migrate']);
      expect(migrated.code, migrated.err).toBe(0);
      const imported = tool(url, ['import', file]);
      expect(imported.code, imported.err).toBe(0);

      const target = openDatabase(url);
      try {
        for (const table of EXPORTED_TABLES) {
          const rowsOf = (db: Db) => db.selectFrom(table).selectAll().execute();
          const a = await rowsOf(source.db);
          const b = await rowsOf(target.db);
          const numeric = new Set(
            (a as Record<string, unknown>[]).flatMap((r) =>
              Object.keys(r).filter((k) => typeof r[k] === 'number'),
            ),
          );
          expect(b.length, table).toBe(a.length);
          expect(comparable(b as Record<string, unknown>[], numeric), table).toEqual(
            comparable(a as Record<string, unknown>[], numeric),
          );
        }
        // Every id sequence goes on past the imported rows (a table whose sequence was not moved
        // would hand out an imported id again).
        const serial = await sql<{ name: string }>`select table_name as name from information_schema.columns
          where table_schema = current_schema() and column_name = 'id' and column_default like 'nextval%'`.execute(
          target.db,
        );
        const exported: readonly string[] = EXPORTED_TABLES;
        const tables = serial.rows.map((r) => r.name).filter((n) => exported.includes(n));
        expect(tables.length).toBeGreaterThan(10);
        for (const table of tables) {
          const { rows } = await sql<{ next: string; max: string | null }>`
            select nextval(pg_get_serial_sequence(${table}, 'id')) as next,
              (select max(id) from ${sql.table(table)}) as max`.execute(target.db);
          expect(Number(rows[0]!.next), table).toBeGreaterThan(Number(rows[0]!.max ?? 0));
        }
      } finally {
        await target.db.destroy();
      }

      // The new server writes on: new rows of the busiest tables after the imported ones.
      const opened = openDatabase(url);
      const b = await startApp({}, { database: { ...opened, url, cleanup: () => opened.db.destroy() } });
      try {
        const staff = await b.admin();
        const created = await staff.post('/api/streamers?admin=1', { name: 'After The Move' });
        expect(created.status).toBe(201);
        const maxStreamer = await source.db
          .selectFrom('streamers')
          .select((eb) => eb.fn.max('id').as('m'))
          .executeTakeFirstOrThrow();
        expect(created.body.id).toBeGreaterThan(Number(maxStreamer.m));
        const user = await b.signedIn(await b.user({ login: 'newcomer' }));
        const comment = await user.post('/api/comments', {
          streamer_id: created.body.id,
          body: 'first words here',
        });
        expect(comment.status).toBe(201);
        await staff.put(`/api/streamers?id=${created.body.id}`, { r: { s: 5 }, reward: 10 });
        expect((await staff.get('/api/audit')).status).toBe(200);
      } finally {
        await b.close();
      }
    });
  },
);
