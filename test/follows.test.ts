import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { writeTransaction } from '../src/db/transaction.ts';
import { notifyLive } from '../src/notifications/notify.ts';
import { FOLLOW_LIMIT } from '../src/shared/follows.ts';
import { useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';
import { startFakeLive } from './helpers/fake-live.ts';
import { cookieOf, streamsOf } from './helpers/sse.ts';
import { streamerRow } from './helpers/rows.ts';

/** DECISIONS.md "Fifth wave" → "Following", over HTTP on SQLite and PostgreSQL. */
const fake = await startFakeLive();
afterAll(() => fake.close());
const t = await useApp(fake.env());
const admin = await t.admin();
const stream = streamsOf(t.url);
beforeEach(() => fake.reset());

const RATING = { s: 5, g: 5, a: 5, v: 5, n: 5, ns: 5, o: 5 };
let seq = 0;

/** A streamer of the Public view on Twitch (the fake's provider_a), with its channel. */
async function rated(name = `Followed ${++seq}`) {
  const channel = `follow${process.pid}x${++seq}`;
  const made = await admin.post('/api/streamers?admin=1', {
    name,
    platform: 'provider_a',
    provider_a: channel,
  });
  expect(made.status, made.text).toBe(201);
  const id = made.body.id as number;
  expect((await admin.put(`/api/streamers?id=${id}`, { r: RATING, provider_a: channel })).status).toBe(200);
  return { id, channel, name };
}

/** Streamers of the Public view made through the data layer: the limit needs hundreds. */
async function ratedMany(n: number): Promise<number[]> {
  const now = t.clock.now().toISOString();
  const tag = `bulk${process.pid}x${++seq}`;
  const ids: number[] = [];
  for (let from = 0; from < n; from += 100) {
    const rows = Array.from({ length: Math.min(100, n - from) }, (_, k) =>
      streamerRow(`${tag} ${from + k}`, now, {
        platform: 'provider_b',
        kick_name: `${tag}_${from + k}`,
        evaluated: 1,
      }),
    );
    const made = await t.db.insertInto('streamers').values(rows).returning('id').execute();
    await t.db
      .insertInto('ratings')
      .values(made.map((m) => ({ streamer_id: m.id, ...RATING, reward: 0, notes: null, updated_at: now })))
      .execute();
    ids.push(...made.map((m) => m.id));
  }
  return ids;
}

const person = async () => {
  const user = await t.user();
  return { user, c: await t.signedIn(user) };
};
const follow = (c: Client, id: number, on = true) => c.put(`/api/follows?streamer_id=${id}`, { follow: on });
const followed = async (c: Client) => {
  const res = await c.get('/api/follows');
  expect(res.status).toBe(200);
  return res.body.streamer_ids as number[];
};
const rowsOf = async (userId: number) =>
  (await t.db.selectFrom('follows').select('streamer_id').where('user_id', '=', userId).execute()).length;
const followersIn = async (c: Client, path: string, id: number) => {
  const res = await c.get(path);
  expect(res.status, res.text).toBe(200);
  const items = (Array.isArray(res.body) ? res.body : [res.body]) as { id: number; followers: number }[];
  return items.find((s) => s.id === id)?.followers;
};
const liveOf = async (c: Client) => {
  const res = await c.get('/api/notifications');
  expect(res.status).toBe(200);
  return (res.body.items as { kind: string }[]).filter((n) => n.kind === 'live');
};
/** One round of live sync against the fakes, then a minute passes. */
const round = async () => {
  expect(await t.app.liveSync.runOnce()).toBe(true);
  t.clock.advance(60_000);
};

describe('following', () => {
  it('follow, repeat, unfollow: {ok, followers}; GET lists the ids ascending; a repeat changes nothing', async () => {
    const [a, b] = [await rated(), await rated()];
    const me = await person();
    const other = await person();
    expect((await follow(me.c, b.id)).body).toEqual({ ok: true, followers: 1 });
    expect((await follow(me.c, a.id)).body).toEqual({ ok: true, followers: 1 });
    expect((await follow(other.c, b.id)).body).toEqual({ ok: true, followers: 2 });
    expect((await follow(me.c, b.id)).body).toEqual({ ok: true, followers: 2 });
    expect(await followed(me.c)).toEqual([a.id, b.id].sort((x, y) => x - y));
    expect(await rowsOf(me.user.id)).toBe(2);
    expect((await follow(me.c, b.id, false)).body).toEqual({ ok: true, followers: 1 });
    expect((await follow(me.c, b.id, false)).body).toEqual({ ok: true, followers: 1 });
    expect(await followed(me.c)).toEqual([a.id]);
    expect(await followed(other.c)).toEqual([b.id]);
  });

  it('GET pages with limit and before (every new list answers in pages): the highest ids, ascending; a bad limit is 400', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await rated()).id);
    const me = await person();
    for (const id of ids) await follow(me.c, id);
    const sorted = [...ids].sort((x, y) => x - y);
    const first = (await me.c.get('/api/follows?limit=2')).body.streamer_ids as number[];
    expect(first).toEqual(sorted.slice(3));
    const next = (await me.c.get(`/api/follows?limit=2&before=${first[0]}`)).body.streamer_ids;
    expect(next).toEqual(sorted.slice(1, 3));
    expect((await me.c.get(`/api/follows?limit=100&before=${sorted[1]}`)).body.streamer_ids).toEqual([
      sorted[0],
    ]);
    expect(await followed(me.c)).toEqual(sorted);
    for (const bad of ['0', '101', 'x']) {
      const res = await me.c.get(`/api/follows?limit=${bad}`);
      expect([res.status, res.body]).toEqual([
        400,
        { error: 'limit must be an integer from 1 to 100', code: 'invalid_limit' },
      ]);
    }
  });

  it('a form-encoded body follows and stops following as JSON does (DECISIONS.md "Requests")', async () => {
    const s = await rated();
    const me = await person();
    const put = (follow: string) =>
      me.c.put(`/api/follows?streamer_id=${s.id}`, undefined, { form: { follow } });
    expect((await put('true')).body).toEqual({ ok: true, followers: 1 });
    expect(await followed(me.c)).toEqual([s.id]);
    expect((await put('false')).body).toEqual({ ok: true, followers: 0 });
    expect((await put('1')).body).toEqual({ ok: true, followers: 1 });
    expect((await put('0')).body).toEqual({ ok: true, followers: 0 });
    expect((await put('on')).status).toBe(400);
    expect(await followed(me.c)).toEqual([]);
  });

  it('anonymous: 401 Not logged in for both; a bad request is 400 and stores nothing', async () => {
    const s = await rated();
    const anon = t.client();
    const notLoggedIn = { error: 'Not logged in', code: 'not_logged_in' };
    expect([(await follow(anon, s.id)).status, (await follow(anon, s.id)).body]).toEqual([401, notLoggedIn]);
    expect([(await anon.get('/api/follows')).status, (await anon.get('/api/follows')).body]).toEqual([
      401,
      notLoggedIn,
    ]);
    const me = await person();
    const missing = await me.c.put('/api/follows', { follow: true });
    expect([missing.status, missing.body]).toEqual([
      400,
      { error: 'Missing streamer_id', code: 'missing_streamer_id' },
    ]);
    for (const body of [{}, { follow: 'yes' }, { follow: 2 }, { follow: null }, { follow: [true] }]) {
      const bad = await me.c.put(`/api/follows?streamer_id=${s.id}`, body);
      expect([bad.status, bad.body], JSON.stringify(body)).toEqual([
        400,
        { error: 'Invalid follow', code: 'invalid_field' },
      ]);
    }
    expect(await rowsOf(me.user.id)).toBe(0);
  });

  it('only streamers of the Public view: an unknown or unrated one is 404 Streamer not found', async () => {
    const me = await person();
    const unrated = await t.streamer();
    const notFound = { error: 'Streamer not found', code: 'streamer_not_found' };
    for (const id of [unrated, 99_999_999]) {
      for (const on of [true, false]) {
        const res = await follow(me.c, id, on);
        expect([res.status, res.body]).toEqual([404, notFound]);
      }
    }
    expect(await rowsOf(me.user.id)).toBe(0);
  });

  it('a followed streamer that left the Public view can still be unfollowed, not followed again (a conformance sweep)', async () => {
    const me = await person();
    const s = await rated();
    expect((await follow(me.c, s.id)).status).toBe(200);
    // Its rating zeroed, it leaves the Public view.
    expect(
      (
        await admin.put(`/api/streamers?id=${s.id}`, {
          r: { ...RATING, s: 0, g: 0, a: 0, v: 0, n: 0, ns: 0, o: 0 },
          provider_a: s.channel,
        })
      ).status,
    ).toBe(200);
    expect((await t.client().get(`/api/streamers?id=${s.id}`)).status).toBe(404);
    expect((await follow(me.c, s.id, true)).status).toBe(404);
    const undone = await follow(me.c, s.id, false);
    expect([undone.status, undone.body]).toEqual([200, { ok: true, followers: 0 }]);
    expect(await rowsOf(me.user.id)).toBe(0);
    // Not followed (any more): 404 as before.
    expect((await follow(me.c, s.id, false)).status).toBe(404);
  });

  it('banned: 403 Účet je zablokován; timed out: 403 Účet je dočasně omezen; nothing stored', async () => {
    const s = await rated();
    const banned = await t.signedIn(await t.user({}, { banned: true }));
    expect([(await follow(banned, s.id)).status, (await follow(banned, s.id)).body]).toEqual([
      403,
      { error: 'Účet je zablokován', code: 'banned' },
    ]);
    const late = await person();
    await admin.put(`/api/users?id=${late.user.id}`, { timeout_hours: 1 });
    const refused = await follow(late.c, s.id);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'Účet je dočasně omezen', code: 'timed_out' });
    expect(await rowsOf(late.user.id)).toBe(0);
    expect(await followersIn(admin, `/api/streamers?id=${s.id}&all=1`, s.id)).toBe(0);
  });
});

describe('followers on streamer items', () => {
  it('every view and ?id=N carry followers, and a follow changes what the kept answers show at once', async () => {
    const s = await rated();
    const views = [
      [t.client(), '/api/streamers'],
      [t.client(), `/api/streamers?id=${s.id}`],
      [admin, '/api/streamers?all=1'],
      [admin, `/api/streamers?id=${s.id}&all=1`],
    ] as const;
    const all = async () => Promise.all(views.map(([c, path]) => followersIn(c, path, s.id)));
    expect(await all()).toEqual([0, 0, 0, 0]);
    const fans = await Promise.all([person(), person(), person()]);
    for (const f of fans) expect((await follow(f.c, s.id)).status).toBe(200);
    expect(await all()).toEqual([3, 3, 3, 3]);
    await follow(fans[0].c, s.id, false);
    expect(await all()).toEqual([2, 2, 2, 2]);
    // Another streamer's followers are its own.
    const other = await rated();
    expect(await followersIn(t.client(), '/api/streamers', other.id)).toBe(0);
  });
});

describe('the limit', () => {
  it(`at most ${FOLLOW_LIMIT} streamers per user: the next is 400 Too many follows; unfollowing makes room`, async () => {
    const ids = await ratedMany(FOLLOW_LIMIT + 1);
    const me = await person();
    const now = t.clock.now().toISOString();
    await t.db
      .insertInto('follows')
      .values(
        ids
          .slice(0, FOLLOW_LIMIT - 1)
          .map((streamer_id) => ({ user_id: me.user.id, streamer_id, created_at: now })),
      )
      .execute();
    const last = ids[FOLLOW_LIMIT - 1]!;
    const over = ids[FOLLOW_LIMIT]!;
    expect((await follow(me.c, last)).body).toEqual({ ok: true, followers: 1 });
    const refused = await follow(me.c, over);
    expect([refused.status, refused.body]).toEqual([
      400,
      { error: 'Too many follows', code: 'too_many_follows' },
    ]);
    expect(await rowsOf(me.user.id)).toBe(FOLLOW_LIMIT);
    // A repeat at the limit changes nothing and is no error.
    expect((await follow(me.c, last)).body).toEqual({ ok: true, followers: 1 });
    expect((await follow(me.c, ids[0]!, false)).status).toBe(200);
    expect((await follow(me.c, over)).body).toEqual({ ok: true, followers: 1 });
    expect((await followed(me.c)).length).toBe(FOLLOW_LIMIT);
  });

  it('requests fired side by side never pass the limit together', async () => {
    const room = 3;
    const ids = await ratedMany(FOLLOW_LIMIT - room + 20);
    const me = await person();
    const now = t.clock.now().toISOString();
    await t.db
      .insertInto('follows')
      .values(
        ids
          .slice(0, FOLLOW_LIMIT - room)
          .map((streamer_id) => ({ user_id: me.user.id, streamer_id, created_at: now })),
      )
      .execute();
    const answers = await Promise.all(ids.slice(FOLLOW_LIMIT - room).map((id) => follow(me.c, id)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(room);
    expect(answers.filter((a) => a.status === 400).map((a) => a.body.code)).toEqual(
      Array(20 - room).fill('too_many_follows'),
    );
    expect(await rowsOf(me.user.id)).toBe(FOLLOW_LIMIT);
  });
});

describe('live notifications', () => {
  it('a stream that live sync starts notifies each follower once, with the unread event; a new stream notifies again', async () => {
    const s = await rated('Going Live');
    const fans = [await person(), await person()];
    const stranger = await person();
    for (const f of fans) await follow(f.c, s.id);
    const events = await stream('/api/events', cookieOf(fans[0]!.c));
    const told = events.next('notification');
    fake.a.live.set(s.channel, {
      game: 'Chess',
      title: 'Blitz',
      viewers: 10,
      since: t.clock.now().toISOString(),
    });
    await round();
    expect((await told).data).toEqual({ unread: 1 });
    for (const f of fans) {
      const res = await f.c.get('/api/notifications');
      expect(res.body.unread).toBe(1);
      expect(res.body.items).toEqual([
        {
          id: expect.any(Number),
          kind: 'live',
          at: expect.any(String),
          read: false,
          streamer_id: s.id,
          streamer_name: 'Going Live',
          comment_id: null,
          actor: null,
        },
      ]);
    }
    expect(await liveOf(stranger.c)).toEqual([]);
    // The same stream, seen again and again: nothing more.
    await round();
    await round();
    for (const f of fans) expect(await liveOf(f.c)).toHaveLength(1);
    // Offline by the second check without it, then a new stream.
    fake.a.live.clear();
    await round();
    await round();
    fake.a.live.set(s.channel, {
      game: 'Go',
      title: 'Again',
      viewers: 5,
      since: t.clock.now().toISOString(),
    });
    await round();
    for (const f of fans) expect(await liveOf(f.c)).toHaveLength(2);
    expect(await liveOf(stranger.c)).toEqual([]);
  });

  it('one stream notifies a follower at most once, however often it is told (the unique index)', async () => {
    const s = await rated();
    const fan = await person();
    await follow(fan.c, s.id);
    fake.a.live.set(s.channel, {
      game: 'Tetris',
      title: 'Lines',
      viewers: 3,
      since: t.clock.now().toISOString(),
    });
    await round();
    const started = await t.db
      .selectFrom('streams')
      .select(['id', 'streamer_id'])
      .where('streamer_id', '=', s.id)
      .execute();
    expect(started).toHaveLength(1);
    const now = t.clock.now().toISOString();
    await writeTransaction(t.database, (trx) => notifyLive(trx, started, now));
    await writeTransaction(t.database, (trx) => notifyLive(trx, started, now));
    expect(await liveOf(fan.c)).toHaveLength(1);
  });

  it("an administrator's status change by hand notifies nobody; live sync's stream start afterwards does", async () => {
    const s = await rated();
    const fan = await person();
    await follow(fan.c, s.id);
    const put = await admin.put(`/api/streamers?id=${s.id}`, {
      r: RATING,
      provider_a: s.channel,
      status: 'live',
    });
    expect(put.status).toBe(200);
    expect((await followersIn(t.client(), `/api/streamers?id=${s.id}`, s.id)) ?? -1).toBe(1);
    expect((await t.client().get(`/api/streamers?id=${s.id}`)).body.status).toBe('live');
    expect(await liveOf(fan.c)).toEqual([]);
    expect((await fan.c.get('/api/notifications')).body.unread).toBe(0);
    fake.a.live.set(s.channel, {
      game: 'Chess',
      title: 'Now',
      viewers: 1,
      since: t.clock.now().toISOString(),
    });
    await round();
    expect(await liveOf(fan.c)).toHaveLength(1);
  });
});

describe('your data', () => {
  it('follows are in the account export', async () => {
    const [a, b] = [await rated('Export One'), await rated('Export Two')];
    const me = await person();
    await follow(me.c, b.id);
    await follow(me.c, a.id);
    const res = await me.c.get('/api/account/export');
    expect(res.status).toBe(200);
    expect(res.body.follows).toEqual([
      { streamer_id: a.id, streamer_name: 'Export One', created_at: expect.any(String) },
      { streamer_id: b.id, streamer_name: 'Export Two', created_at: expect.any(String) },
    ]);
    expect(JSON.stringify((await (await person()).c.get('/api/account/export')).body.follows)).toBe('[]');
  });

  it('deleting the account removes its follows and their count; deleting the streamer removes its follows', async () => {
    const s = await rated();
    const me = await person();
    const stays = await person();
    await follow(me.c, s.id);
    await follow(stays.c, s.id);
    expect(await followersIn(t.client(), '/api/streamers', s.id)).toBe(2);
    expect((await me.c.del('/api/account', { body: { confirm: me.user.login } })).body).toEqual({ ok: true });
    expect(await rowsOf(me.user.id)).toBe(0);
    expect(await followersIn(t.client(), '/api/streamers', s.id)).toBe(1);
    expect((await admin.del(`/api/streamers?id=${s.id}`)).status).toBe(200);
    expect(await rowsOf(stays.user.id)).toBe(0);
    expect(await followed(stays.c)).toEqual([]);
  });
});
