import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { changeAdminPassword } from '../src/auth/admin-password.ts';
import { ADMIN_PASSWORD, useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';
import { cookieOf, streamsOf } from './helpers/sse.ts';

/**
 * The ranking's stream (`GET /api/events?ranking=1`, events/ranking.ts): `rating` and `live` of
 * every streamer in the Public view, and `rating` of one that leaves it, so that the page's list
 * follows the site.
 */
const t = await useApp();
const admin = await t.admin();
const stream = streamsOf(t.url);
const full = (v: number) => ({ r: { s: v, g: v, a: v, v, n: v, ns: v, o: v } });
const idOf = (data: unknown) => (data as { streamer_id: number }).streamer_id;
/**
 * The newest `rating` or `live` in the log: a stream has heard every change of the ranking when
 * its last id is this one (on PostgreSQL the instance's tail is woken after each commit, so a
 * streamer's first rating may reach a stream opened after it).
 */
const newestRanked = async () =>
  String(
    (
      await t.db
        .selectFrom('event_log')
        .select((eb) => eb.fn.max('id').as('id'))
        .where('type', 'in', ['rating', 'live'])
        .executeTakeFirstOrThrow()
    ).id,
  );

/**
 * What `make` makes (streamers, their first ratings), heard by a stream opened before it: then the
 * instance holds it all, and a stream opened next starts after it.
 */
async function heardFirst<T>(make: () => Promise<T>): Promise<T> {
  const probe = await stream('/api/events?ranking=1');
  const made = await make();
  const newest = await newestRanked();
  await expect.poll(() => probe.lastEventId).toBe(newest);
  probe.close();
  return made;
}

describe("the ranking's stream", () => {
  it('hears rating and live of every streamer in the Public view, and nothing of one outside it', async () => {
    // A stream opened first hears the new streamers' first ratings: then the instance holds them,
    // and the stream under test starts after them.
    const probe = await stream('/api/events?ranking=1');
    const a = await t.streamer(undefined, { s: 3 });
    const b = await t.streamer(undefined, { s: 4 });
    const unrated = await t.streamer();
    const newest = await newestRanked();
    await expect.poll(() => probe.lastEventId).toBe(newest);
    probe.close();
    const s = await stream('/api/events?ranking=1');
    expect(s.status).toBe(200);
    // Outside the Public view: neither its status nor its notes are told.
    expect((await admin.put(`/api/streamers?id=${unrated}`, { status: 'live', notes: 'x' })).status).toBe(
      200,
    );
    await t.client().post('/api/comments', { streamer_id: a, body: 'not for the ranking' });
    const live = s.next('live');
    await admin.put(`/api/streamers?id=${b}`, { ...full(4), status: 'live' });
    expect((await live).data).toEqual({ streamer_id: b, status: 'live', viewers: null });
    const rating = s.next('rating');
    await admin.put(`/api/streamers?id=${a}`, full(6));
    await rating;
    expect(s.events.map((e) => [e.event, idOf(e.data)])).toEqual([
      ['rating', b],
      ['live', b],
      ['rating', a],
    ]);
  });

  it('a reconnection that missed none of its changes resumes; one that missed one is told reset', async () => {
    const a = await t.streamer(undefined, { s: 3 });
    const first = await stream('/api/events?ranking=1');
    const heard = first.next('rating');
    await admin.put(`/api/streamers?id=${a}`, full(5));
    await heard;
    const newest = await newestRanked();
    await expect.poll(() => first.lastEventId).toBe(newest);
    first.close();
    // A comment is none of the ranking's business: missing it is missing nothing.
    await t.client().post('/api/comments', { streamer_id: a, body: 'while away' });
    const quiet = await stream('/api/events?ranking=1', { 'last-event-id': first.lastEventId });
    const next = quiet.next('rating');
    await admin.put(`/api/streamers?id=${a}`, full(6));
    await next;
    expect(quiet.events.map((e) => e.event)).toEqual(['rating']);
    quiet.close();
    // The change is missed once the instance has it (another page hears it; on PostgreSQL the
    // instance's tail is woken after the commit): only then is the page back.
    const other = await stream('/api/events?ranking=1');
    const told = other.next('rating');
    await admin.put(`/api/streamers?id=${a}`, full(7));
    await told;
    other.close();
    const back = await stream('/api/events?ranking=1', { 'last-event-id': quiet.lastEventId });
    await expect.poll(() => back.events.length).toBe(1);
    expect(back.events[0]).toMatchObject({ event: 'reset', data: {} });
  });

  it('hears the rating of a streamer that leaves the Public view (total 0, deleted), and nothing of one never in it', async () => {
    const [zeroed, deleted, never, gone] = await heardFirst(async () => [
      await t.streamer(undefined, { s: 3 }),
      await t.streamer(undefined, { s: 4 }),
      await t.streamer(),
      await t.streamer(),
    ]);
    const s = await stream('/api/events?ranking=1');
    // Never in the Public view: its rating of 0 and its deletion are not told.
    expect((await admin.put(`/api/streamers?id=${never}`, full(0))).status).toBe(200);
    expect((await admin.del(`/api/streamers?id=${gone}`)).status).toBe(200);
    expect((await admin.put(`/api/streamers?id=${zeroed}`, full(0))).status).toBe(200);
    expect((await admin.del(`/api/streamers?id=${deleted}`)).status).toBe(200);
    const newest = await newestRanked();
    await expect.poll(() => s.lastEventId).toBe(newest);
    // As every `rating` is sent: the streamer's id, nothing of why.
    expect(s.events.map((e) => [e.event, e.data])).toEqual([
      ['rating', { streamer_id: zeroed }],
      ['rating', { streamer_id: deleted }],
    ]);
  });

  it('is told reset, never nothing, when which streamers are in the Public view cannot be asked', async () => {
    const a = await heardFirst(() => t.streamer(undefined, { s: 3 }));
    const s = await stream('/api/events?ranking=1');
    const reset = s.next('reset');
    // The list's query fails (the database away for it), the rating write does not.
    await sql`alter table streamer_replies rename to streamer_replies_away`.execute(t.db);
    try {
      expect((await admin.put(`/api/streamers?id=${a}`, full(5))).status).toBe(200);
      await reset;
    } finally {
      await sql`alter table streamer_replies_away rename to streamer_replies`.execute(t.db);
    }
    expect(s.events.map((e) => [e.event, e.data])).toEqual([['reset', {}]]);
    // Its id is the page's: a reconnection resumes after the change the list loads again.
    expect(Number(s.lastEventId)).toBeGreaterThanOrEqual(Number(await newestRanked()));
    const told = s.next('rating');
    await admin.put(`/api/streamers?id=${a}`, full(6));
    expect((await told).data).toEqual({ streamer_id: a });
  });

  /**
   * `c`'s ranking stream hears `outside` go live; once `end` has run it hears the Public view's
   * rows alone: `shown` rated again (`score`) comes after the outside streamer's two events.
   */
  const hearsUntil = async (
    c: Client,
    outside: number,
    end: () => Promise<unknown>,
    shown: number,
    score: number,
    way: string,
  ) => {
    const s = await stream('/api/events?ranking=1', cookieOf(c));
    const heard = s.next('live');
    expect((await admin.put(`/api/streamers?id=${outside}`, { status: 'live' })).status).toBe(200);
    expect((await heard).data).toEqual({ streamer_id: outside, status: 'live', viewers: null });
    await end();
    await admin.put(`/api/streamers?id=${outside}`, { status: 'offline' });
    await admin.put(`/api/streamers?id=${shown}`, full(score));
    const newest = await newestRanked();
    await expect.poll(() => s.lastEventId).toBe(newest);
    expect(
      s.events.map((e) => [e.event, idOf(e.data)]),
      way,
    ).toEqual([
      ['rating', outside],
      ['live', outside],
      ['rating', shown],
    ]);
  };

  it("a staff member's stream also hears the streamers outside the Public view, while they are staff and signed in", async () => {
    const shown = await heardFirst(() => t.streamer(undefined, { s: 3 }));
    const visitor = await stream('/api/events?ranking=1');
    const outsiders: number[] = [];
    const ways: [string, (c: Client, id: number) => Promise<unknown>][] = [
      ['signed out', (c) => c.get('/api/oauth/logout')],
      ['no longer a moderator', (_, id) => admin.put(`/api/users?id=${id}`, { is_mod: false })],
    ];
    for (const [i, [way, end]] of ways.entries()) {
      const outside = await t.streamer();
      outsiders.push(outside);
      const u = await t.user(undefined, { mod: true });
      const c = await t.signedIn(u);
      await hearsUntil(c, outside, () => end(c, u.id), shown, 4 + i, way);
    }
    await expect.poll(() => visitor.lastEventId).toBe(await newestRanked());
    expect(visitor.events.filter((e) => outsiders.includes(idOf(e.data)))).toEqual([]);
  });

  it("the shared password's administrator's stream also hears them, while the session holds the password's flag", async () => {
    const shown = await heardFirst(() => t.streamer(undefined, { s: 3 }));
    const ways: [string, (c: Client) => Promise<unknown>][] = [
      ['signed out', (c) => c.post('/api/auth/logout')],
      [
        'the password changed',
        async () => {
          await changeAdminPassword(t.database, 'a rotated password', async () => undefined);
          // Every password session lost its flag: the writers sign in again (ADMIN_PASSWORD still logs in).
          for (const c of [admin, await t.sharedAdmin()])
            expect((await c.post('/api/auth/login', { password: ADMIN_PASSWORD })).status).toBe(200);
        },
      ],
    ];
    for (const [i, [way, end]] of ways.entries()) {
      const outside = await t.streamer();
      // No account: the administrator flag is the session's alone.
      const c = await t.admin();
      await hearsUntil(c, outside, () => end(c), shown, 4 + i, way);
    }
  });

  it("a team member's stream also hears the streamers outside the Public view, while in a team", async () => {
    const shown = await heardFirst(() => t.streamer(undefined, { s: 3 }));
    const outside = await t.streamer();
    const u = await t.user();
    const team = await admin.post('/api/rater_groups', { name: `Live team ${u.id}` });
    const joined = await admin.post('/api/rater_groups?members=1', {
      group_id: team.body.id,
      login: u.login,
    });
    expect(joined.status).toBe(200);
    const s = await stream('/api/events?ranking=1', cookieOf(await t.signedIn(u)));
    const heard = s.next('live');
    expect((await admin.put(`/api/streamers?id=${outside}`, { status: 'live' })).status).toBe(200);
    expect((await heard).data).toEqual({ streamer_id: outside, status: 'live', viewers: null });
    // The team gone, so is their Team view: the Public view's rows alone.
    expect((await admin.del(`/api/rater_groups?id=${team.body.id}`)).status).toBe(200);
    await admin.put(`/api/streamers?id=${outside}`, { status: 'offline' });
    await admin.put(`/api/streamers?id=${shown}`, full(7));
    await expect.poll(async () => s.lastEventId === (await newestRanked())).toBe(true);
    expect(s.events.map((e) => [e.event, idOf(e.data)])).toEqual([
      ['rating', outside],
      ['live', outside],
      ['rating', shown],
    ]);
  });

  it('a signed-in visitor opens it from what their session holds: their teams are not looked up', async () => {
    const c = await t.signedIn(await t.user());
    // Their session read once, as any page of theirs reads it (then kept in memory).
    expect((await c.get('/api/oauth/me')).status).toBe(200);
    await sql`alter table rater_group_members rename to rater_group_members_away`.execute(t.db);
    try {
      const s = await stream('/api/events?ranking=1', cookieOf(c));
      expect(s.status).toBe(200);
      s.close();
    } finally {
      await sql`alter table rater_group_members_away rename to rater_group_members`.execute(t.db);
    }
  });
});
