import { afterAll, describe, expect, it } from 'vitest';
import { startApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';
import { startFakeProviders } from './helpers/fake-providers.ts';
import { location, pathOf } from './helpers/signin.ts';

/**
 * Issue 29 (DECISIONS.md "Moderators' tools") and issue 30, item 1: moderators ban and time out
 * users who are not staff; a timed-out user's contributions are refused; a ban outlives the
 * account and remembers the addresses the banned user came from.
 */
const fake = await startFakeProviders();
const t = await startApp({ ...fake.env(), TRUST_PROXY: '127.0.0.1' });
afterAll(async () => {
  await t.close();
  await fake.close();
});
t.clock.freeze();
const admin = await t.admin();
const from = (address: string) => t.client({ 'x-forwarded-for': address });
let seq = 0;

/** A whole sign-in at the fake provider_a as this person, from this address. */
async function signIn(address: string, person: { id: string; login: string }): Promise<Client> {
  const c = from(address);
  fake.a.nextUser = { ...person, display_name: person.login };
  const start = await c.get('/api/oauth/login/provider_a');
  const auth = await fake.authorize(location(start));
  const done = await c.get(pathOf(auth.location!));
  expect(done.status).toBe(302);
  return c;
}
const me = async (c: Client) => (await c.get('/api/oauth/me')).body;
const userByLogin = async (login: string) =>
  (await admin.get(`/api/users?q=${login}`)).body.find((u: { login: string }) => u.login === login);

describe('a ban outlives the account (issue 30, item 1)', () => {
  it('a banned user who deletes the account and signs in again with the same provider account is banned', async () => {
    const person = { id: `ban-${++seq}`, login: `banned_person${seq}` };
    const c = await signIn('198.51.100.1', person);
    const { user } = await me(c);
    expect((await admin.put(`/api/users?id=${user.id}`, { banned: true })).status).toBe(200);
    // A banned session may still delete its account (its data stays the person's).
    const deleted = await c.del('/api/account', { body: { confirm: person.login } });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ ok: true });
    expect(await userByLogin(person.login)).toBeUndefined();

    const again = await signIn('198.51.100.99', person);
    const answer = await me(again);
    expect(answer).toMatchObject({ user: null, banned: true });
    expect((await userByLogin(person.login)).banned).toBe(true);
    // Treated as signed out: no vote, no like.
    const id = await t.streamer();
    expect((await again.put(`/api/votes?streamer_id=${id}`, { score: 5 })).status).toBe(401);
  });

  it('an unban forgets the person: a new account of the same person is not banned', async () => {
    const person = { id: `ban-${++seq}`, login: `forgiven${seq}` };
    const c = await signIn('198.51.100.2', person);
    const { user } = await me(c);
    await admin.put(`/api/users?id=${user.id}`, { banned: true });
    await admin.put(`/api/users?id=${user.id}`, { banned: false });
    await c.del('/api/account', { body: { confirm: person.login } });
    const again = await signIn('198.51.100.3', person);
    expect((await me(again)).user).not.toBeNull();
  });

  it('a new account whose first sign-in comes from a banned address is held for 30 days, visible to staff', async () => {
    const banned = { id: `ban-${++seq}`, login: `troll${seq}` };
    const c = await signIn('198.51.100.10', banned);
    await admin.put(`/api/users?id=${(await me(c)).user.id}`, { banned: true });

    const returning = { id: `ban-${++seq}`, login: `newcomer${seq}` };
    await signIn('198.51.100.10', returning);
    expect(await userByLogin(returning.login)).toMatchObject({ held: true, banned: false });

    const elsewhere = { id: `ban-${++seq}`, login: `stranger${seq}` };
    await signIn('198.51.100.11', elsewhere);
    expect(await userByLogin(elsewhere.login)).toMatchObject({ held: false });

    // After 30 days the address is forgotten.
    t.clock.offset += 31 * 24 * 3_600_000;
    try {
      const later = { id: `ban-${++seq}`, login: `later${seq}` };
      await signIn('198.51.100.10', later);
      const row = await t.db
        .selectFrom('users')
        .select('held')
        .where('login', '=', later.login)
        .executeTakeFirst();
      expect(row?.held).toBe(0);
    } finally {
      t.clock.offset -= 31 * 24 * 3_600_000;
    }
  });
});

describe("moderators' tools", () => {
  it('a moderator lists users and bans or times out users who are not staff', async () => {
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    const u = await t.user();
    const list = await mod.get('/api/users');
    expect(list.status).toBe(200);
    expect(list.body.find((x: { id: number }) => x.id === u.id)).toMatchObject({
      timeout_until: null,
      held: false,
    });
    expect((await mod.put(`/api/users?id=${u.id}`, { banned: true })).body).toEqual({ ok: true });
    expect((await userByLogin(u.login)).banned).toBe(true);
    await mod.put(`/api/users?id=${u.id}`, { banned: false });
    expect((await mod.put(`/api/users?id=${u.id}`, { timeout_hours: 24 })).status).toBe(200);
    const until = new Date(t.clock.now().getTime() + 24 * 3_600_000).toISOString();
    expect((await userByLogin(u.login)).timeout_until).toBe(until);
    await mod.put(`/api/users?id=${u.id}`, { timeout_hours: 0 });
    expect((await userByLogin(u.login)).timeout_until).toBeNull();
  });

  it("`id` reads one user's ban and time-out for staff (a comment's menu); none is [], not an id 400", async () => {
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    const u = await t.user();
    const other = await t.user();
    await admin.put(`/api/users?id=${u.id}`, { banned: true });
    await admin.put(`/api/users?id=${other.id}`, { timeout_hours: 2 });
    const until = new Date(t.clock.now().getTime() + 2 * 3_600_000).toISOString();
    const one = async (id: number) => (await mod.get(`/api/users?id=${id}`)).body;
    expect(await one(u.id)).toEqual([
      expect.objectContaining({ id: u.id, banned: true, timeout_until: null }),
    ]);
    expect(await one(other.id)).toEqual([
      expect.objectContaining({ id: other.id, banned: false, timeout_until: until }),
    ]);
    // With `q` too, the user must match both.
    expect((await mod.get(`/api/users?id=${u.id}&q=${other.login}`)).body).toEqual([]);
    expect(await one(2_147_483_647)).toEqual([]);
    for (const bad of ['abc', '0', '-3']) {
      const res = await mod.get(`/api/users?id=${bad}`);
      expect([res.status, res.body], bad).toEqual([400, { error: 'Missing id', code: 'missing_id' }]);
    }
    expect((await (await t.signedIn(other)).get(`/api/users?id=${u.id}`)).status).toBe(401);
    expect((await t.client().get(`/api/users?id=${u.id}`)).status).toBe(401);
  });

  it('a moderator on staff, or granting a role: 403 Admin only, nothing changed', async () => {
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    const other = await t.user({}, { mod: true });
    const staffAdmin = await t.user();
    await admin.put(`/api/users?id=${staffAdmin.id}`, { is_admin: true });
    const plain = await t.user();
    for (const [id, body] of [
      [other.id, { banned: true }],
      [other.id, { timeout_hours: 5 }],
      [staffAdmin.id, { banned: true }],
      [staffAdmin.id, { timeout_hours: 5 }],
      [plain.id, { is_mod: true }],
      [plain.id, { is_admin: true }],
      [plain.id, { banned: true, is_mod: true }],
      // Any other key, and any request on staff, however empty (the role before the input).
      [plain.id, { foo: 1 }],
      [plain.id, { banned: true, note: 'x' }],
      [other.id, {}],
      [other.id, { foo: 1 }],
      [staffAdmin.id, { timeout_hours: 'not a number' }],
    ] as const) {
      const res = await mod.put(`/api/users?id=${id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body).toEqual({ error: 'Admin only', code: 'admin_only' });
    }
    expect(await userByLogin(other.login)).toMatchObject({
      banned: false,
      timeout_until: null,
      is_mod: true,
    });
    expect(await userByLogin(staffAdmin.login)).toMatchObject({ banned: false, is_admin: true });
    expect(await userByLogin(plain.login)).toMatchObject({ banned: false, is_mod: false, is_admin: false });
    // A user who is not staff stays out.
    expect((await (await t.signedIn(plain)).get('/api/users')).status).toBe(401);
  });

  it('timeout_hours is an integer from 0 to 720; others answer 400', async () => {
    const u = await t.user();
    for (const bad of [-1, 721, 1.5, 'x', true]) {
      const res = await admin.put(`/api/users?id=${u.id}`, { timeout_hours: bad });
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.error).toBe('Invalid timeout_hours');
    }
    expect((await userByLogin(u.login)).timeout_until).toBeNull();
    expect((await admin.put(`/api/users?id=${u.id}`, { timeout_hours: 720 })).status).toBe(200);
  });

  it("a timed-out user's every contribution is refused, telling until when, nothing stored; reading works", async () => {
    const streamerId = await t.streamer('Timeout Stage', { s: 5, g: 5, a: 5, v: 5, n: 5, ns: 5, o: 5 });
    const author = await t.signedIn(await t.user());
    const posted = await author.post('/api/comments', {
      streamer_id: streamerId,
      body: 'before the time-out',
    });
    expect(posted.status).toBe(201);
    const u = await t.user();
    const c = await t.signedIn(u);
    const own = await c.post('/api/comments', { streamer_id: streamerId, body: 'my own comment' });
    await admin.put(`/api/users?id=${u.id}`, { timeout_hours: 1 });
    const until = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    expect((await me(c)).timeout_until).toBe(until);
    // DECISIONS.md "Errors": the body is the message and its code, nothing more; the
    // current-user answer says until when.
    const refused = { error: 'Účet je dočasně omezen', code: 'timed_out' };
    const counts = async () => ({
      comments: await t.db
        .selectFrom('comments')
        .select(({ fn }) => fn.countAll().as('n'))
        .executeTakeFirst(),
      likes: await t.db
        .selectFrom('comment_likes')
        .select(({ fn }) => fn.countAll().as('n'))
        .executeTakeFirst(),
      votes: await t.db
        .selectFrom('votes')
        .select(({ fn }) => fn.countAll().as('n'))
        .executeTakeFirst(),
      reports: await t.db
        .selectFrom('reports')
        .select(({ fn }) => fn.countAll().as('n'))
        .executeTakeFirst(),
      streamers: await t.db
        .selectFrom('streamers')
        .select(({ fn }) => fn.countAll().as('n'))
        .executeTakeFirst(),
    });
    const before = await counts();
    const writes: [string, () => Promise<{ status: number; body: unknown }>][] = [
      ['comment', () => c.post('/api/comments', { streamer_id: streamerId, body: 'still here' })],
      [
        'reply',
        () => c.post('/api/comments', { streamer_id: streamerId, body: 'a reply', reply_to: posted.body.id }),
      ],
      ['edit', () => c.put(`/api/comments?id=${own.body.id}`, { body: 'edited while timed out' })],
      ['like', () => c.put(`/api/comments?id=${posted.body.id}&like=1`, { liked: true })],
      ['vote', () => c.put(`/api/votes?streamer_id=${streamerId}`, { score: 7 })],
      ['report', () => c.post('/api/reports', { comment_id: posted.body.id, reason: 'spam' })],
      ['suggestion', () => c.post('/api/streamers', { name: 'Suggested While Out' })],
    ];
    for (const [kind, write] of writes) {
      const res = await write();
      expect(res.status, kind).toBe(403);
      expect(res.body, kind).toEqual(refused);
    }
    expect(await counts()).toEqual(before);
    expect((await c.get(`/api/comments?streamer_id=${streamerId}`)).status).toBe(200);

    // A millisecond before `timeout_until` it still runs; at that instant it has ended and
    // writing works again (shared/time-out.ts, which the page asks too).
    const offset = t.clock.offset;
    t.clock.offset += 3_600_000 - 1;
    try {
      expect((await c.put(`/api/votes?streamer_id=${streamerId}`, { score: 7 })).body).toEqual(refused);
      t.clock.offset += 1;
      expect((await c.put(`/api/votes?streamer_id=${streamerId}`, { score: 7 })).status).toBe(200);
      expect((await c.put(`/api/comments?id=${posted.body.id}&like=1`, { liked: true })).status).toBe(200);
    } finally {
      t.clock.offset = offset;
    }
  });
});
