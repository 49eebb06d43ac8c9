import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DAY, MINUTE } from '../src/lib/clock.ts';
import { startApp, useApp } from './helpers/app.ts';
import { createTestDatabase } from './helpers/database.ts';
import { type FakeApi, type Stream, startFakeLive } from './helpers/fake-live.ts';

// Stream history (issue 28, DECISIONS.md "Fourth wave / Stream history").
const fake = await startFakeLive();
afterAll(() => fake.close());
const t = await useApp(fake.env());
t.clock.freeze();
let admin = await t.admin();
beforeEach(() => fake.reset());

type Platform = 'provider_a' | 'provider_b';
let n = 0;
async function addStreamer(platform: Platform) {
  const channel = `hist${++n}`;
  const res = await admin.post('/api/streamers?admin=1', {
    name: `History ${channel}`,
    platform,
    [platform]: channel,
  });
  expect(res.status).toBe(201);
  return { id: res.body.id as number, channel };
}
const apiOf = (p: Platform): FakeApi => (p === 'provider_a' ? fake.a : fake.b);
const at = (offsetMs = 0) => new Date(t.clock.now().getTime() + offsetMs).toISOString();
/** One round, then the clock moves a minute (the sync interval). */
async function round(app = t) {
  expect(await app.app.liveSync.runOnce()).toBe(true);
  const when = app.clock.now().toISOString();
  app.clock.advance(MINUTE);
  return when;
}
const streams = async (id: number, query = '', c = admin) => {
  const res = await c.get(`/api/streamers?id=${id}&streams=1${query}${c === admin ? '&all=1' : ''}`);
  expect(res.status, res.text).toBe(200);
  return res.body as {
    started_at: string;
    ended_at: string | null;
    minutes: number;
    peak_viewers: number;
    avg_viewers: number;
    games: string[];
    title: string;
    samples: { at: string; viewers: number }[];
  }[];
};
const stats = async (id: number) => (await admin.get(`/api/streamers?id=${id}&all=1`)).body.stats_30d;

describe.each(['provider_a', 'provider_b'] as const)('stream history through %s', (platform) => {
  it('records one stream through viewers and games changing, a failed check and going offline', async () => {
    const api = apiOf(platform);
    const s = await addStreamer(platform);
    const since = at(-10 * MINUTE);
    const live = (viewers: number, game: string): Stream => ({
      game,
      title: `Run at ${viewers}`,
      viewers,
      since,
    });
    api.live.set(s.channel, live(100, 'Elden Ring'));
    const first = await round();
    api.live.set(s.channel, live(300, 'Tetris'));
    const second = await round();
    // A failed check in the middle: no sample, the stream goes on.
    api.mode = 'error_500';
    await round();
    api.mode = 'ok';
    api.live.set(s.channel, live(200, 'Elden Ring'));
    const last = await round();

    const [open] = await streams(s.id);
    expect(open).toMatchObject({ started_at: since, ended_at: null, peak_viewers: 300, avg_viewers: 200 });
    expect(open?.minutes).toBe(14); // 10 before the first check, 4 minutes of rounds since
    expect(open?.samples).toEqual([
      { at: first, viewers: 100 },
      { at: second, viewers: 300 },
      { at: last, viewers: 200 },
    ]);

    api.live.clear();
    await round();
    expect((await streams(s.id))[0]?.ended_at).toBeNull(); // one check without it: not yet
    await round();
    const all = await streams(s.id);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({
      started_at: since,
      ended_at: last,
      minutes: 13,
      peak_viewers: 300,
      avg_viewers: 200,
      games: ['Elden Ring', 'Tetris'],
      title: 'Run at 200',
    });
    expect(await stats(s.id)).toEqual({
      streams: 1,
      hours: 0.2, // 13 minutes: 0.2166 h
      avg_viewers: 200,
      peak_viewers: 300,
      top_game: 'Elden Ring',
    });
  });

  it('a stream that flaps every check stays one stream', async () => {
    const api = apiOf(platform);
    const s = await addStreamer(platform);
    const stream = { game: 'Chess', title: 'Blitz', viewers: 50, since: at(-MINUTE) };
    for (let k = 0; k < 4; k++) {
      api.live.set(s.channel, stream);
      await round();
      api.live.clear();
      await round();
    }
    const all = await streams(s.id);
    expect(all).toHaveLength(1);
    expect(all[0]?.ended_at).toBeNull();
    expect(all[0]?.samples).toHaveLength(4);
  });

  it('nonsense from the provider is clamped and cut: negative viewers, a future start, a huge game', async () => {
    const api = apiOf(platform);
    const s = await addStreamer(platform);
    api.live.set(s.channel, {
      game: 'G'.repeat(10_000),
      title: 'T'.repeat(10_000),
      viewers: -5,
      since: at(DAY),
    });
    const first = await round();
    api.live.set(s.channel, { game: 'Ok', title: 'Fine', viewers: 1e15, since: at(DAY) });
    await round();
    const [one] = await streams(s.id);
    expect(one?.started_at).toBe(first); // not in the future: when it was first seen
    expect(one?.samples.map((x) => x.viewers)).toEqual([0, 10_000_000]);
    expect(one?.peak_viewers).toBe(10_000_000);
    expect(one?.games).toEqual(['G'.repeat(100), 'Ok']);
    expect(one?.title).toBe('Fine');
    expect((await stats(s.id)).top_game).toBe('G'.repeat(100));
  });
});

describe('stream history: the rules around it', () => {
  it('a streamer never seen live has zero figures, in every view', async () => {
    const id = await t.streamer(undefined, { s: 5 });
    const zero = { streams: 0, hours: 0, avg_viewers: 0, peak_viewers: 0, top_game: null };
    expect(await stats(id)).toEqual(zero);
    const pub = (await t.client().get('/api/streamers')).body.find((s: { id: number }) => s.id === id);
    expect(pub?.stats_30d).toEqual(zero);
    expect(await streams(id, '', t.client())).toEqual([]);
  });

  it('hours are rounded half up to one decimal (3 minutes are 0.1 h)', async () => {
    const s = await addStreamer('provider_a');
    fake.a.live.set(s.channel, { game: 'Go', title: 'x', viewers: 1, since: at(-3 * MINUTE) });
    await round();
    expect((await stats(s.id)).hours).toBe(0.1);
  });

  it("an administrator's status change records nothing", async () => {
    const id = await t.streamer();
    expect((await admin.put(`/api/streamers?id=${id}`, { status: 'live', game: 'X' })).status).toBe(200);
    expect(await streams(id)).toEqual([]);
    expect((await stats(id)).streams).toBe(0);
  });

  it('limit: 1 to 100, 20 unless given; anything else answers 400', async () => {
    const s = await addStreamer('provider_b');
    const start = t.clock.now().getTime() - 5 * DAY;
    await t.db
      .insertInto('streams')
      .values(
        Array.from({ length: 25 }, (_, k) => {
          const iso = new Date(start + k * 60 * MINUTE).toISOString();
          return { streamer_id: s.id, started_at: iso, last_seen_at: iso, ended_at: iso, title: `#${k}` };
        }),
      )
      .execute();
    const all = await streams(s.id);
    expect(all.map((x) => x.title)).toEqual(Array.from({ length: 20 }, (_, k) => `#${24 - k}`));
    expect(await streams(s.id, '&limit=100')).toHaveLength(25);
    expect(await streams(s.id, '&limit=1')).toHaveLength(1);
    for (const bad of ['0', '101', '-1', 'abc', '1.5', '']) {
      const res = await admin.get(`/api/streamers?id=${s.id}&streams=1&limit=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body).toEqual({ error: 'limit must be an integer from 1 to 100', code: 'invalid_limit' });
    }
    // Input comes before the row: a bad limit for an unknown streamer is still 400.
    expect((await admin.get('/api/streamers?id=999999&streams=1&limit=0')).status).toBe(400);
    expect((await admin.get('/api/streamers?id=999999&streams=1')).status).toBe(404);
  });

  it('the figures count the last 30 days; samples go after 30 days and streams after 365, in the upkeep', async () => {
    const s = await addStreamer('provider_a');
    fake.a.live.set(s.channel, { game: 'Old', title: 'old', viewers: 7, since: at(-MINUTE) });
    await round();
    fake.a.live.clear();
    await round();
    await round();
    expect((await stats(s.id)).streams).toBe(1);
    t.clock.advance(31 * DAY);
    await round();
    admin = await t.admin(); // the session has expired meanwhile
    expect(await stats(s.id)).toMatchObject({ streams: 0, top_game: null });
    const kept = await streams(s.id);
    expect(kept).toHaveLength(1);
    expect(kept[0]?.samples).toEqual([]);
    t.clock.advance(335 * DAY);
    await round();
    admin = await t.admin();
    expect(await streams(s.id)).toEqual([]);
  });

  it('an open stream nobody has seen live for hours (sync was off) is ended, not continued', async () => {
    const s = await addStreamer('provider_b');
    fake.b.live.set(s.channel, { game: 'A', title: 'a', viewers: 1, since: at(-MINUTE) });
    const seen = await round();
    t.clock.advance(7 * 60 * MINUTE);
    await round();
    admin = await t.admin();
    const all = await streams(s.id);
    expect(all).toHaveLength(2);
    expect(all[1]?.ended_at).toBe(seen);
    expect(all[0]?.ended_at).toBeNull();
  });
});

describe('stream history across a restart', () => {
  it('a new app on the same database goes on with the open stream, and ends it by the same rule', async () => {
    const database = await createTestDatabase();
    const first = await startApp(fake.env(), { database });
    first.clock.freeze();
    const c = await first.admin();
    const res = await c.post('/api/streamers?admin=1', {
      name: 'Restarted',
      platform: 'provider_a',
      provider_a: 'restarted',
    });
    const id = res.body.id as number;
    const since = new Date(first.clock.now().getTime() - MINUTE).toISOString();
    fake.a.live.set('restarted', { game: 'A', title: 'before', viewers: 10, since });
    await round(first);
    fake.a.live.clear();
    await round(first); // one check without it, then the restart
    const offset = first.clock.offset;
    await first.close();

    const second = await startApp(fake.env(), { database });
    second.clock.freeze();
    second.clock.advance(offset + 5 * MINUTE - second.clock.offset);
    fake.a.live.set('restarted', { game: 'A', title: 'after', viewers: 30, since });
    await round(second);
    const c2 = await second.admin();
    const list = (await c2.get(`/api/streamers?id=${id}&streams=1&all=1`)).body;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ started_at: since, ended_at: null, avg_viewers: 20, title: 'after' });
    await second.close();
    await database.cleanup();
  });
});
