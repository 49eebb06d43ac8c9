import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { startApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';
import { startFakeLive } from './helpers/fake-live.ts';
import { type FakeUser, startFakeProviders } from './helpers/fake-providers.ts';
import { location, pathOf } from './helpers/signin.ts';
import { streamsOf } from './helpers/sse.ts';
import { R } from './helpers/streamers.ts';
import { writeTransaction } from '../src/db/transaction.ts';
import { upsertUser } from '../src/users/queries.ts';

/**
 * Issue 26, DECISIONS.md "Streamers speak for themselves": who speaks for a streamer, the
 * verified mark, the right of reply, the streamer's label on comments, and "The changes"
 * (`submitter` gone, `suggested_by` for staff). Sign-ins go through the fake Twitch and Kick,
 * and live sync learns the channels' account ids from the fake live APIs.
 */
const live = await startFakeLive();
const t = await startApp(live.env());
// Sign-ins through the fake Twitch and Kick need the providers' own token URLs, which live sync
// would use too: they run against a second app of their own.
const providers = await startFakeProviders();
const s = await startApp(providers.env());
afterAll(async () => {
  await t.close();
  await s.close();
  await providers.close();
  await live.close();
});
beforeEach(() => live.reset());
const admin = await t.admin();
const stream = streamsOf(t.url);

type P = 'provider_a' | 'provider_b';
let n = 0;

/** The callback path of a sign-in the provider approved for this account (not followed yet). */
async function approve(c: Client, provider: P, user: FakeUser): Promise<string> {
  providers[provider === 'provider_a' ? 'a' : 'b'].nextUser = user;
  const start = await c.get(`/api/oauth/login/${provider}`);
  const auth = await providers.authorize(location(start));
  return pathOf(auth.location!);
}
/**
 * A client signed in as this account: the user is written as a sign-in writes it (one write
 * transaction, signin/routes.ts), and the session holds it.
 */
async function signIn(provider: P, id: string | number, login: string): Promise<Client> {
  const profile = { provider, provider_id: String(id), login, display_name: login, avatar: '' };
  const user = await writeTransaction(t.app.database, (trx) =>
    upsertUser(trx, profile, t.clock.now().toISOString()),
  );
  return t.signedIn(user);
}
const me = async (c: Client) => (await c.get('/api/oauth/me')).body as { speaks_for: number[] };
/** A rated streamer on a platform with its channel there. */
async function streamer(platform: P, channel: string, rated = true): Promise<number> {
  const key = platform === 'provider_a' ? 'provider_a' : 'kick_name';
  const res = await admin.post('/api/streamers?admin=1', { name: `Voice ${++n}`, platform, [key]: channel });
  expect(res.status).toBe(201);
  // An administrator's PUT without the provider_b name empties it (DECISIONS.md "Streamers").
  const keep = platform === 'provider_b' ? { kick_name: channel } : {};
  if (rated)
    expect((await admin.put(`/api/streamers?id=${res.body.id}`, { r: R(7), ...keep })).status).toBe(200);
  return res.body.id as number;
}
const item = async (id: number, c: Client = t.client()) => (await c.get(`/api/streamers?id=${id}`)).body;
const publicItem = async (id: number) =>
  ((await t.client().get('/api/streamers')).body as any[]).find((s) => s.id === id);
const reply = (c: Client, id: number, body: unknown) => c.put(`/api/streamers?id=${id}&reply=1`, { body });
const replyRows = async (id: number) =>
  t.db.selectFrom('streamer_replies').selectAll().where('streamer_id', '=', id).execute();
const sync = async () => expect(await t.app.liveSync.runOnce()).toBe(true);
const uniq = () => `ch${++n}x${Date.now() % 100000}`;

describe('who speaks for a streamer', () => {
  it('the same platform and folded login: verified on the item, speaks_for in /me; signed out it is empty', async () => {
    const channel = uniq();
    const id = await streamer('provider_a', channel);
    expect(await publicItem(id)).toMatchObject({ verified: false, streamer_reply: null });
    const c = await signIn('provider_a', `a-${channel}`, `  ${channel.toUpperCase()}`);
    expect((await me(c)).speaks_for).toEqual([id]);
    expect(await publicItem(id)).toMatchObject({ verified: true });
    expect(await item(id)).toMatchObject({ verified: true });
    expect((await me(t.client())).speaks_for).toEqual([]);
  });

  it('the share card shows the verified mark: a new ETag and other pixels once the streamer signs in', async () => {
    const channel = uniq();
    const id = await streamer('provider_a', channel);
    const card = async () => {
      const res = await fetch(`${t.url}/s/${id}/card.png`);
      return { etag: res.headers.get('etag'), bytes: Buffer.from(await res.arrayBuffer()) };
    };
    const before = await card();
    await signIn('provider_a', `a-${channel}`, channel);
    const after = await card();
    expect(after.etag).not.toBe(before.etag);
    expect(after.bytes.equals(before.bytes)).toBe(false);
  });

  it("another platform's account with the same login speaks for nobody", async () => {
    const channel = uniq();
    const id = await streamer('provider_a', channel);
    const kick = await signIn('provider_b', 991_000 + n, channel);
    expect((await me(kick)).speaks_for).toEqual([]);
    expect(await publicItem(id)).toMatchObject({ verified: false });
    expect(await reply(kick, id, 'Hello there')).toMatchObject({
      status: 403,
      body: { error: 'Not your channel', code: 'not_your_channel' },
    });
  });

  it('on Kick the slug is the channel, and Kick answers its account id as broadcaster_user_id', async () => {
    const channel = uniq();
    const id = await streamer('provider_b', channel);
    live.b.ids.set(channel, '4242');
    await sync();
    expect(
      await t.db
        .selectFrom('streamers')
        .select(['account_id', 'account_channel'])
        .where('id', '=', id)
        .executeTakeFirst(),
    ).toEqual({
      account_id: '4242',
      account_channel: `provider_b:${channel}`,
    });
    const impostor = await signIn('provider_b', 4343, channel);
    expect((await me(impostor)).speaks_for).toEqual([]);
    const owner = await signIn('provider_b', 4242, channel);
    expect((await me(owner)).speaks_for).toEqual([id]);
    expect(await publicItem(id)).toMatchObject({ verified: true });
  });

  it('once live sync learnt the account id, only that account speaks: a renamed or re-registered login does not', async () => {
    const channel = uniq();
    const id = await streamer('provider_a', channel);
    live.a.ids.set(channel, '555');
    await sync();
    const other = await signIn('provider_a', '999', channel);
    expect((await me(other)).speaks_for).toEqual([]);
    expect(await publicItem(id)).toMatchObject({ verified: false });
    const owner = await signIn('provider_a', '555', channel);
    expect((await me(owner)).speaks_for).toEqual([id]);
    expect(await publicItem(id)).toMatchObject({ verified: true });
  });

  it.each(['provider_a', 'provider_b'] as const)(
    'a channel renamed between two syncs (%s): the id learnt first stays, the new holder of the login speaks for nobody',
    async (platform) => {
      const channel = uniq();
      const id = await streamer(platform, channel);
      const api = platform === 'provider_a' ? live.a : live.b;
      api.ids.set(channel, '1001');
      await sync();
      const first = await signIn(platform, '1001', channel);
      api.ids.set(channel, '2002'); // the login now belongs to another account
      await sync();
      const second = await signIn(platform, '2002', channel);
      const [a, b] = await Promise.all([
        reply(first, id, 'From the owner'),
        reply(second, id, 'From the newcomer'),
      ]);
      expect(a.status).toBe(200);
      expect(b.status).toBe(403);
      expect((await me(second)).speaks_for).toEqual([]);
      expect((await me(first)).speaks_for).toEqual([id]);
      expect((await item(id)).streamer_reply).toMatchObject({ body: 'From the owner' });
    },
  );

  it('a sign-in through the provider makes the streamer verified at once (the kept list moves)', async () => {
    const channel = uniq();
    const sAdmin = await s.admin();
    const created = await sAdmin.post('/api/streamers?admin=1', { name: `Signed ${n}`, provider_a: channel });
    const id = created.body.id as number;
    await sAdmin.put(`/api/streamers?id=${id}`, { r: R(5) });
    const listed = async () =>
      ((await s.client().get('/api/streamers')).body as any[]).find((x) => x.id === id);
    expect(await listed()).toMatchObject({ verified: false });
    const c = s.client();
    expect(
      (
        await c.get(
          await approve(c, 'provider_a', { id: `si-${channel}`, login: channel, display_name: 'X' }),
        )
      ).status,
    ).toBe(302);
    expect((await c.get('/api/oauth/me')).body.speaks_for).toEqual([id]);
    expect(await listed()).toMatchObject({ verified: true });
  });

  it('two sign-ins racing for one channel: at most one account speaks for it and replies', async () => {
    const channel = uniq();
    const sAdmin = await s.admin();
    const created = await sAdmin.post('/api/streamers?admin=1', { name: `Raced ${n}`, provider_a: channel });
    const id = created.body.id as number;
    await sAdmin.put(`/api/streamers?id=${id}`, { r: R(5) });
    const c1 = s.client();
    const c2 = s.client();
    const p1 = await approve(c1, 'provider_a', { id: 'race-1', login: channel, display_name: channel });
    const p2 = await approve(c2, 'provider_a', { id: 'race-2', login: channel, display_name: channel });
    await Promise.all([c1.get(p1), c2.get(p2)]);
    const speaking = [(await me(c1)).speaks_for, (await me(c2)).speaks_for].filter((s) => s.includes(id));
    expect(speaking.length).toBe(1);
    const answers = await Promise.all([reply(c1, id, 'One'), reply(c2, id, 'Two')]);
    expect(answers.filter((a) => a.status === 200).length).toBe(1);
    expect(
      await s.db.selectFrom('streamer_replies').selectAll().where('streamer_id', '=', id).execute(),
    ).toHaveLength(1);
  });

  it('a banned user speaks for nobody: no mark, 403 banned, and their reply is no longer shown', async () => {
    const channel = uniq();
    const id = await streamer('provider_a', channel);
    const c = await signIn('provider_a', `ban-${channel}`, channel);
    expect((await reply(c, id, 'Before the ban')).status).toBe(200);
    const user = await t.db
      .selectFrom('users')
      .select('id')
      .where('provider_id', '=', `ban-${channel}`)
      .executeTakeFirstOrThrow();
    expect((await admin.put(`/api/users?id=${user.id}`, { banned: true })).status).toBe(200);
    expect(await publicItem(id)).toMatchObject({ verified: false, streamer_reply: null });
    expect(await reply(c, id, 'After the ban')).toMatchObject({
      status: 403,
      body: { error: 'Účet je zablokován' },
    });
    expect((await replyRows(id))[0]?.body).toBe('Before the ban');
  });
});

describe('the right of reply', () => {
  it('writes a reply under the rating it answers; a later rating leaves rating_at behind; empty removes it', async () => {
    const channel = uniq();
    const id = await streamer('provider_a', channel);
    const c = await signIn('provider_a', `r-${channel}`, channel);
    const ratedAt = ((await admin.get(`/api/streamers?id=${id}&history=1`)).body as { at: string }[]).at(
      -1,
    )!.at;
    t.clock.offset += 60_000;
    expect(await reply(c, id, '  Thanks for the rating!  ')).toMatchObject({
      status: 200,
      body: { ok: true },
    });
    const first = (await item(id)).streamer_reply;
    expect(first).toEqual({ body: 'Thanks for the rating!', at: expect.any(String), rating_at: ratedAt });
    expect(first.at > ratedAt).toBe(true);
    t.clock.offset += 60_000;
    await admin.put(`/api/streamers?id=${id}`, { r: R(3) });
    const history = (await admin.get(`/api/streamers?id=${id}&history=1`)).body as { at: string }[];
    const after = (await item(id)).streamer_reply;
    expect(after.rating_at).toBe(ratedAt);
    expect(history.at(-1)!.at).not.toBe(after.rating_at);
    expect((await publicItem(id)).streamer_reply).toEqual(after);
    expect(await reply(c, id, '')).toMatchObject({ status: 200, body: { ok: true } });
    expect((await item(id)).streamer_reply).toBeNull();
    expect(await replyRows(id)).toHaveLength(0);
  });

  it("the reply arrives live: its streamer's `rating` event when it is written, replaced and removed (issue 45, week 18)", async () => {
    const channel = uniq();
    const id = await streamer('provider_a', channel);
    const c = await signIn('provider_a', `live-${channel}`, channel);
    const s = await stream(`/api/events?streamer_id=${id}`);
    for (const body of ['First words', 'Second words', '']) {
      const told = s.next('rating');
      expect((await reply(c, id, body)).status).toBe(200);
      expect((await told).data).toEqual({ streamer_id: id });
    }
    expect((await reply(c, id, 'Again')).status).toBe(200);
    const removed = s.next('rating');
    expect((await admin.del(`/api/streamers?id=${id}&reply=1`)).status).toBe(200);
    expect((await removed).data).toEqual({ streamer_id: id });
  });

  it('bad input and the wrong caller get the documented error and nothing is stored', async () => {
    const channel = uniq();
    const id = await streamer('provider_a', channel);
    const unrated = await streamer('provider_a', channel, false);
    const c = await signIn('provider_a', `b-${channel}`, channel);
    expect(await reply(c, id, 'x')).toMatchObject({
      status: 400,
      body: { error: 'Komentář je příliš krátký', code: 'comment_too_short' },
    });
    expect(await reply(c, id, 'ř'.repeat(1001))).toMatchObject({
      status: 400,
      body: { error: 'Komentář je příliš dlouhý (max 1000 znaků)', code: 'comment_too_long' },
    });
    expect((await reply(c, id, '😀'.repeat(1000))).status).toBe(200);
    expect(await reply(c, unrated, 'Not rated yet')).toMatchObject({
      status: 404,
      body: { error: 'Streamer not found' },
    });
    expect(await reply(t.client(), id, 'Anonymous')).toMatchObject({
      status: 401,
      body: { error: 'Not logged in' },
    });
    expect(await reply(admin, id, 'Staff')).toMatchObject({
      status: 403,
      body: { error: 'Not your channel', code: 'not_your_channel' },
    });
    const modUser = await t.user({ provider: 'provider_a', login: `mod${n}` }, { mod: true });
    expect((await reply(await t.signedIn(modUser), id, 'Moderator')).status).toBe(403);
    const another = await signIn('provider_a', `o-${channel}`, `other${channel}`);
    expect((await reply(another, id, 'Another')).body).toMatchObject({ code: 'not_your_channel' });
    expect(await replyRows(unrated)).toHaveLength(0);
    expect((await replyRows(id))[0]?.body).toBe('😀'.repeat(1000));
  });

  it('a streamer whose scores were set to 0 (out of the Public view, its rating kept) takes no reply', async () => {
    const channel = uniq();
    const id = await streamer('provider_a', channel);
    const c = await signIn('provider_a', `z-${channel}`, channel);
    expect((await reply(c, id, 'While rated')).status).toBe(200);
    expect((await admin.put(`/api/streamers?id=${id}`, { r: R(0) })).status).toBe(200);
    expect(await reply(c, id, 'Out of the view')).toMatchObject({
      status: 404,
      body: { error: 'Streamer not found' },
    });
  });

  it('staff remove a reply (audited); the streamer may write a new one', async () => {
    const channel = uniq();
    const id = await streamer('provider_a', channel);
    const c = await signIn('provider_a', `d-${channel}`, channel);
    await reply(c, id, 'Something rude');
    expect(await t.client().del(`/api/streamers?id=${id}&reply=1`)).toMatchObject({ status: 401 });
    const modUser = await t.user({ provider: 'provider_a', login: `dmod${n}` }, { mod: true });
    const mod = await t.signedIn(modUser);
    expect(await mod.del(`/api/streamers?id=${id}&reply=1`)).toMatchObject({
      status: 200,
      body: { ok: true },
    });
    expect((await item(id)).streamer_reply).toBeNull();
    expect(await item(id)).toMatchObject({ id });
    expect((await admin.get('/api/audit?limit=1')).body[0]).toMatchObject({
      action: 'streamer.reply_remove',
      target_id: id,
    });
    expect((await reply(c, id, 'Something kind')).status).toBe(200);
    expect((await item(id)).streamer_reply).toMatchObject({ body: 'Something kind' });
  });

  it('a reply is text: HTML and script come back as text, in the API and in the first view', async () => {
    const channel = uniq();
    const id = await streamer('provider_a', channel);
    const c = await signIn('provider_a', `h-${channel}`, channel);
    const body = '<script>alert(1)</script><b>bold</b> & "quotes"';
    expect((await reply(c, id, body)).status).toBe(200);
    expect((await item(id)).streamer_reply.body).toBe(body);
    const page = await t.client().get(`/s/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<script>alert(1)');
    expect(page.text).not.toContain('<b>bold</b>');
  });
});

describe('the streamer on comments, and the suggester', () => {
  it('comments of the account that speaks for the streamer carry is_streamer', async () => {
    const channel = uniq();
    const id = await streamer('provider_a', channel);
    const owner = await signIn('provider_a', `c-${channel}`, channel);
    const other = await signIn('provider_a', `c2-${channel}`, `fan${channel}`);
    expect((await owner.post('/api/comments', { streamer_id: id, body: 'It is me' })).status).toBe(201);
    expect((await other.post('/api/comments', { streamer_id: id, body: 'A fan' })).status).toBe(201);
    const comments = (await t.client().get(`/api/comments?streamer_id=${id}`)).body as any[];
    expect(comments.map((x) => [x.body, x.is_streamer])).toEqual([
      ['It is me', true],
      ['A fan', false],
    ]);
  });

  it('the Full view never carries submitter; staff see the signed-in suggester as suggested_by', async () => {
    const login = `suggester${uniq()}`;
    const fan = await signIn('provider_a', `s-${login}`, login);
    const byFan = await fan.post('/api/streamers', { name: `Suggested ${++n}`, submitter: 'My label' });
    expect(byFan.status).toBe(201);
    const byGuest = await t
      .client()
      .post('/api/streamers', { name: `Guest suggested ${++n}`, submitter: 'Guest label' });
    expect(byGuest.status).toBe(201);
    const all = (await admin.get('/api/streamers?all=1')).body as any[];
    for (const s of all) expect(s).not.toHaveProperty('submitter');
    expect(all.find((s) => s.id === byFan.body.id).suggested_by).toEqual({
      id: expect.any(Number),
      display_name: login,
    });
    expect(all.find((s) => s.id === byGuest.body.id).suggested_by).toBeNull();
    expect(JSON.stringify(all)).not.toContain('My label');
    expect(await publicItem(byFan.body.id)).toBeUndefined();
  });
});

describe('rated notifications (issue 27, DECISIONS.md "Notifications")', () => {
  it('the user who speaks for a streamer hears when it enters the Public view and when its total changes', async () => {
    const channel = uniq();
    const id = await streamer('provider_a', channel, false);
    const c = await signIn('provider_a', `a-${channel}`, channel);
    // The same login on the other platform speaks for nothing and hears nothing.
    const other = await signIn('provider_b', `b-${channel}`, channel);
    const inbox = async (x: Client) =>
      ((await x.get('/api/notifications')).body as { items: Record<string, unknown>[] }).items;
    expect(await inbox(c)).toEqual([]);
    expect((await admin.put(`/api/streamers?id=${id}`, { r: R(7) })).status).toBe(200);
    expect(await inbox(c)).toMatchObject([{ kind: 'rated', streamer_id: id, comment_id: null, actor: null }]);
    // The same total again: nothing new; another total: one more.
    expect((await admin.put(`/api/streamers?id=${id}`, { r: R(7) })).status).toBe(200);
    expect(await inbox(c)).toHaveLength(1);
    expect((await admin.put(`/api/streamers?id=${id}`, { r: R(8) })).status).toBe(200);
    expect(await inbox(c)).toHaveLength(2);
    expect(await inbox(other)).toEqual([]);
  });
});
