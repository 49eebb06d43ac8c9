import { describe, expect, it } from 'vitest';
import { takeFromLog } from '../src/events/deliverer.ts';
import { sql } from 'kysely';
import { isSqlite } from '../src/db/dialect.ts';
import { APPEND_STAGED, type LogEvent, stageEvents } from '../src/db/event-log.ts';
import { REPLAY_MAX_EVENTS } from '../src/events/log.ts';
import type { Db } from '../src/db/schema.ts';
import { startApp, useApp } from './helpers/app.ts';
import { reopen } from './helpers/database.ts';
import { cookieOf, streamsOf } from './helpers/sse.ts';

/**
 * Issue 40, "One log of what happened": events are rows of the write's own transaction, streams
 * send their ids, and a reconnection with `Last-Event-ID` gets exactly what it missed
 * (DECISIONS.md "Fifth wave" → "Live updates that resume").
 */
const t = await useApp();
const admin = await t.admin();
const stream = streamsOf(t.url);
/** A streamer in the Public view (a visitor may ask for its events). */
const shown = () => t.streamer(undefined, { s: 3 });
const FULL = { s: 5, g: 5, a: 5, v: 5, n: 5, ns: 5, o: 5 };

/** Appends events inside a transaction as a write does: staged, then appended (with the commit, db/transaction.ts). */
const appendEvents = async (trx: Db, events: LogEvent[], at: string) => {
  const staged = await stageEvents(trx, events, at);
  if (staged) {
    await trx.executeQuery(staged);
    await sql.raw(APPEND_STAGED).execute(trx);
  }
};

const logged = (streamerId: number, type?: string) => {
  let q = t.db.selectFrom('event_log').selectAll().where('streamer_id', '=', streamerId);
  if (type) q = q.where('type', '=', type as 'comment');
  return q.orderBy('id').execute();
};

describe('a write that fails tells nobody', () => {
  it('a rating whose rename then fails (409) sends no rating event, now or at the next commit, and logs no row', async () => {
    const sid = await shown();
    await t.streamer('Already Here');
    const other = await shown();
    const s = await stream(`/api/events?streamer_id=${sid}`);
    const ratings = (await logged(sid, 'rating')).length;
    const failed = await admin.put(`/api/streamers?id=${sid}`, { r: FULL, name: 'already HERE' });
    expect(failed.body).toMatchObject({ code: 'streamer_exists' });
    // An unrelated write commits after it (SQLite's old queue flushed at the next commit).
    const seen = await stream(`/api/events?streamer_id=${other}`);
    const later = seen.next('comment');
    await t.client().post('/api/comments', { streamer_id: other, body: 'after the failed rating' });
    await later;
    // And then a write of the streamer itself: the first event the stream gets is that one.
    const first = s.next('comment');
    const id = (await t.client().post('/api/comments', { streamer_id: sid, body: 'the first real event' }))
      .body.id as number;
    expect((await first).data).toEqual({ id, streamer_id: sid });
    expect(s.events.map((e) => e.event)).toEqual(['comment']);
    expect((await logged(sid, 'rating')).length).toBe(ratings);
  });
});

describe('ids and replay', () => {
  it('every event carries the id of its row, growing', async () => {
    const sid = await shown();
    const s = await stream(`/api/events?streamer_id=${sid}`);
    const c = t.client();
    for (let i = 0; i < 3; i++) {
      const next = s.next('comment');
      await c.post('/api/comments', { streamer_id: sid, body: `counted ${i}` });
      await next;
    }
    const rows = await logged(sid, 'comment');
    expect(s.events.map((e) => e.id)).toEqual(rows.map((r) => r.id));
    expect([...s.events.map((e) => e.id)].sort((a, b) => a! - b!)).toEqual(s.events.map((e) => e.id));
  });

  it('Last-Event-ID replays exactly the missed events of its streamer, in order, each once, then goes live', async () => {
    const sid = await shown();
    const elsewhere = await shown();
    const c = t.client();
    const s = await stream(`/api/events?streamer_id=${sid}`);
    const seen = s.next('comment');
    await c.post('/api/comments', { streamer_id: sid, body: 'seen before leaving' });
    await seen;
    s.close();
    const lastId = s.lastEventId;
    const missed: number[] = [];
    for (let i = 0; i < 3; i++) {
      missed.push(
        (await c.post('/api/comments', { streamer_id: sid, body: `missed ${i}` })).body.id as number,
      );
      await c.post('/api/comments', { streamer_id: elsewhere, body: `not mine ${i}` });
    }
    const hidden = missed[1]!;
    await admin.put(`/api/comments?id=${hidden}`, { hidden: true });
    const back = await stream(`/api/events?streamer_id=${sid}`, { 'last-event-id': lastId });
    await expect.poll(() => back.events.length).toBe(4);
    expect(back.events.map((e) => [e.event, e.data])).toEqual([
      ...missed.map((id) => ['comment', { id, streamer_id: sid }]),
      ['comment_removed', { id: hidden, streamer_id: sid }],
    ]);
    const rows = await logged(sid);
    expect(back.events.map((e) => e.id)).toEqual(rows.filter((r) => r.id > Number(lastId)).map((r) => r.id));
    // Every id the stream says only grows: none is sent ahead of the events it replays, so a
    // drop in the middle of the replay resumes where it stopped.
    await expect
      .poll(() => back.lastEventId)
      .toBe(
        String(
          await t.db
            .selectFrom('event_log')
            .select(({ fn }) => fn.max('id').as('id'))
            .executeTakeFirstOrThrow()
            .then((r) => r.id),
        ),
      );
    expect(back.ids).toEqual([...back.ids].sort((a, b) => a - b));
    expect(back.ids[0]).toBe(back.events[0]!.id);
    const live = back.next('comment');
    const after = (await c.post('/api/comments', { streamer_id: sid, body: 'live again' })).body.id as number;
    expect((await live).data).toEqual({ id: after, streamer_id: sid });
    expect(back.events).toHaveLength(5);
  });

  it("a signed-in stream's missed notification is replayed with the current unread count", async () => {
    const sid = await shown();
    const u = await t.user();
    const cu = await t.signedIn(u);
    const top = (await cu.post('/api/comments', { streamer_id: sid, body: 'my own comment' })).body
      .id as number;
    const s = await stream('/api/events', cookieOf(cu));
    await expect.poll(() => s.lastEventId).not.toBe('');
    s.close();
    const lastId = s.lastEventId;
    await t.client().post('/api/comments', { streamer_id: sid, body: 'an answer to you', reply_to: top });
    const back = await stream('/api/events', { ...cookieOf(cu), 'last-event-id': lastId });
    await expect.poll(() => back.events.length).toBe(1);
    expect(back.events[0]).toMatchObject({ event: 'notification', data: { unread: 1 } });
    expect(back.events[0]!.id).toBeGreaterThan(Number(lastId));
  });

  it('a stream that heard nothing still resumes: it is told the id it starts at', async () => {
    const sid = await shown();
    await t.client().post('/api/comments', { streamer_id: await shown(), body: 'moves the log' });
    const s = await stream(`/api/events?streamer_id=${sid}`);
    await expect.poll(() => s.lastEventId).not.toBe('');
    s.close();
    const id = (await t.client().post('/api/comments', { streamer_id: sid, body: 'while away' })).body
      .id as number;
    const back = await stream(`/api/events?streamer_id=${sid}`, { 'last-event-id': s.lastEventId });
    await expect.poll(() => back.events.length).toBe(1);
    expect(back.events[0]).toMatchObject({ event: 'comment', data: { id, streamer_id: sid } });
  });
});

describe('reset', () => {
  const resetFor = async (lastId: string) => {
    const sid = await shown();
    const s = await stream(`/api/events?streamer_id=${sid}`, { 'last-event-id': lastId });
    await expect.poll(() => s.events.length).toBe(1);
    return s.events[0];
  };

  it('an id the service never sent, or not an id: one reset {} with an id', async () => {
    const head = Number(
      (
        await t.db
          .selectFrom('event_log')
          .select((eb) => eb.fn.max('id').as('m'))
          .executeTakeFirst()
      )?.m ?? 0,
    );
    for (const id of [String(head + 1_000), 'abc', '-1']) {
      const e = await resetFor(id);
      expect(e).toMatchObject({ event: 'reset', data: {} });
      expect(e?.id).toEqual(expect.any(Number));
    }
  });

  it('an id older than 10 minutes of the clock: reset; younger: replay', async () => {
    const sid = await shown();
    const s = await stream(`/api/events?streamer_id=${sid}`);
    const first = s.next('comment');
    await t.client().post('/api/comments', { streamer_id: sid, body: 'ten minutes ago' });
    await first;
    s.close();
    t.clock.advance(9 * 60_000);
    const young = await stream(`/api/events?streamer_id=${sid}`, { 'last-event-id': s.lastEventId });
    await expect.poll(() => young.comments).toBeGreaterThan(0);
    expect(young.events).toEqual([]);
    t.clock.advance(2 * 60_000);
    const old = await stream(`/api/events?streamer_id=${sid}`, { 'last-event-id': s.lastEventId });
    await expect.poll(() => old.events.length).toBe(1);
    expect(old.events[0]).toMatchObject({ event: 'reset', data: {} });
  });

  it(`more than ${REPLAY_MAX_EVENTS} events of the site after it: reset`, async () => {
    const sid = await shown();
    const s = await stream(`/api/events?streamer_id=${sid}`);
    const first = s.next('comment');
    await t.client().post('/api/comments', { streamer_id: sid, body: 'long ago in events' });
    await first;
    s.close();
    const at = t.clock.now().toISOString();
    const rows = Array.from({ length: REPLAY_MAX_EVENTS + 1 }, () => ({
      type: 'rating' as const,
      streamer_id: sid + 1_000_000,
      user_id: null,
      data: '{}',
      created_at: at,
    }));
    await t.db.insertInto('event_log').values(rows).execute();
    await t.app.eventTail.wake();
    const back = await stream(`/api/events?streamer_id=${sid}`, { 'last-event-id': s.lastEventId });
    await expect.poll(() => back.events.length).toBe(1);
    expect(back.events[0]).toMatchObject({ event: 'reset', data: {} });
  });
});

describe('across instances', () => {
  it("every instance sends every instance's events with the same ids; one stopped and started again replays what its page missed", async () => {
    const sid = await shown();
    let second = await startApp({}, { database: reopen(t.database) });
    try {
      const there = await stream(`/api/events?streamer_id=${sid}`, {}, second.url);
      const here = await stream(`/api/events?streamer_id=${sid}`);
      const a = there.next('comment');
      const b = here.next('comment');
      await t.client().post('/api/comments', { streamer_id: sid, body: 'said on the first' });
      const [ea, eb] = await Promise.all([a, b]);
      expect(ea.id).toBe(eb.id);
      const c2 = here.next('comment');
      const c1 = there.next('comment');
      await second.client().post('/api/comments', { streamer_id: sid, body: 'said on the second' });
      expect((await c1).id).toBe((await c2).id);
      expect((await c1).id).toBeGreaterThan(ea.id!);
      // The second instance stops; its page is offline while the first goes on.
      there.close();
      const lastId = there.lastEventId;
      await second.close();
      const missed: number[] = [];
      for (let i = 0; i < 3; i++) {
        missed.push(
          (await t.client().post('/api/comments', { streamer_id: sid, body: `offline ${i}` })).body
            .id as number,
        );
      }
      second = await startApp({}, { database: reopen(t.database) });
      const back = await stream(`/api/events?streamer_id=${sid}`, { 'last-event-id': lastId }, second.url);
      await expect.poll(() => back.events.length).toBe(3);
      expect(back.events.map((e) => (e.data as { id: number }).id)).toEqual(missed);
      const live = back.next('comment');
      await t.client().post('/api/comments', { streamer_id: sid, body: 'both again' });
      await live;
      expect(back.events).toHaveLength(4);
    } finally {
      await second.close();
    }
  });
});

describe('ids commit in the order they were drawn', () => {
  it.skipIf(isSqlite(t.db))(
    'PostgreSQL: a write that appends after an open one waits for its commit, so no reader sees a later id first',
    async () => {
      const sid = await shown();
      const event = (body: string) => [{ type: 'comment' as const, id: 0, streamer_id: sid, body }];
      let release = () => {};
      const held = new Promise<void>((ok) => (release = ok));
      let appended = () => {};
      const first = t.db.transaction().execute(async (trx) => {
        await appendEvents(trx, event('first'), t.clock.now().toISOString());
        appended();
        await held;
      });
      await new Promise<void>((ok) => (appended = ok));
      let secondDone = false;
      const second = t.db
        .transaction()
        .execute((trx) => appendEvents(trx, event('second'), t.clock.now().toISOString()))
        .then(() => (secondDone = true));
      // The second's backend waits for the log's lock (a bounded look, not a clock).
      let waiting = false;
      for (let i = 0; i < 2_000 && !waiting && !secondDone; i++) {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'`.execute(
          t.db,
        );
        waiting = (rows[0]?.n ?? 0) > 0;
      }
      expect(secondDone).toBe(false);
      expect(waiting).toBe(true);
      release();
      await Promise.all([first, second]);
      const rows = await logged(sid, 'comment');
      expect(rows.map((r) => JSON.parse(r.data).body)).toEqual(['first', 'second']);
    },
  );
});

describe('a write that tells many', () => {
  it("a go-live's 10,000 notification events append in one transaction (more values than one SQLite statement binds)", async () => {
    const sid = await shown();
    const events = Array.from({ length: 10_000 }, (_, i) => ({
      type: 'comment' as const,
      id: 0,
      streamer_id: sid,
      body: `event ${i}`,
    }));
    await t.db.transaction().execute((trx) => appendEvents(trx, events, t.clock.now().toISOString()));
    expect(await logged(sid, 'comment')).toHaveLength(10_000);
  });

  it.skipIf(isSqlite(t.db))(
    'PostgreSQL: with the plan a connection keeps after a few writes, the staged events are read once, not once per event (migration 039)',
    async () => {
      const sid = await shown();
      const at = t.clock.now().toISOString();
      const events = Array.from({ length: 20_000 }, (_, i) => ({
        type: 'comment' as const,
        id: 0,
        streamer_id: sid,
        body: `event ${i}`,
      }));
      await t.db.transaction().execute(async (trx) => {
        // After five calls on a connection, PL/pgSQL keeps a generic plan of the function's insert:
        // the staged document is then a parameter, and what the insert's rows read of it is read
        // for every row (a go-live to 10,000 followers held the log's lock 21 s, stop 60).
        await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
        // A hang guard: read per row, these 20,000 take minutes; read once, a tenth of a second.
        await sql`set local statement_timeout = '30s'`.execute(trx);
        await appendEvents(trx, events, at);
      });
      const rows = await logged(sid, 'comment');
      expect(rows).toHaveLength(20_000);
      expect(new Set(rows.map((r) => r.created_at))).toEqual(new Set([at]));
      expect(JSON.parse(rows[19_999]!.data).body).toBe('event 19999');
    },
  );
});

describe('deliverers', () => {
  it("a deliverer's step from the log moves its cursor and no content version: kept answers stay", async () => {
    const sid = await shown();
    // Seen for the first time: it starts at the log's head.
    expect(await takeFromLog(t.database, 'test-deliverer', ['comment'], async () => undefined)).toBe(0);
    await t.client().post('/api/comments', { streamer_id: sid, body: 'for the deliverer' });
    const version = t.database.changes.current;
    const taken: number[] = [];
    const n = await takeFromLog(t.database, 'test-deliverer', ['comment'], async (_trx, events) => {
      taken.push(...events.map((e) => e.id));
    });
    expect([n, taken.length]).toEqual([1, 1]);
    expect(t.database.changes.current).toBe(version);
  });
});

describe('the log is pruned by age', () => {
  it('rows older than a day go within the hour after; younger stay', async () => {
    const sid = await t.streamer();
    await admin.post('/api/comments', { streamer_id: sid, body: 'will be old' });
    expect((await logged(sid)).length).toBe(1);
    t.clock.advance(25 * 3_600_000);
    await expect.poll(async () => (await logged(sid)).length).toBe(0);
    // A day later the administrator signs in again.
    const fresh = await (await t.admin()).post('/api/comments', { streamer_id: sid, body: 'fresh one' });
    expect(fresh.status).toBe(201);
    t.clock.advance(3_600_000);
    await expect.poll(async () => (await logged(sid)).length).toBe(1);
  });
});
