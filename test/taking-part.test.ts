import { describe, expect, it } from 'vitest';
import { channelOf } from '../src/shared/rules.ts';
import { countRows, useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';

/** DECISIONS.md "Third wave": taking part, and your data. */
const t = await useApp();
const admin = await t.admin();
const post = async (c: Client, streamer_id: number, extra: Record<string, unknown> = {}) => {
  const res = await c.post('/api/comments', { streamer_id, body: 'a comment here', ...extra });
  return res;
};
const list = async (sid: number, q = '', c: Client = t.client()) =>
  (await c.get(`/api/comments?streamer_id=${sid}${q}`)).body as any[];
const rated = () => t.streamer(undefined, { s: 5, g: 5, a: 5, v: 5, n: 5, ns: 5, o: 5 });

describe('replies', () => {
  it('a reply names its comment; a reply to a reply joins that thread (one level deep)', async () => {
    const sid = await t.streamer();
    const top = (await post(t.client(), sid)).body.id;
    const reply = await post(t.client(), sid, { reply_to: top });
    expect([reply.status, reply.body.reply_to]).toEqual([201, top]);
    const deeper = await post(t.client(), sid, { reply_to: reply.body.id });
    expect(deeper.body.reply_to).toBe(top);
    expect((await list(sid)).map((c) => [c.id, c.reply_to])).toEqual([
      [top, null],
      [reply.body.id, top],
      [deeper.body.id, top],
    ]);
  });

  it("an unknown, hidden or other streamer's comment is 400 Invalid reply_to and nothing is stored", async () => {
    const sid = await t.streamer();
    const other = await t.streamer();
    const hidden = (await post(t.client(), sid)).body.id;
    await admin.put(`/api/comments?id=${hidden}`, { hidden: true });
    const elsewhere = (await post(t.client(), other)).body.id;
    const before = await countRows(t.db, 'comments');
    for (const reply_to of [99999999, hidden, elsewhere]) {
      expect((await post(t.client(), sid, { reply_to })).body).toEqual({
        error: 'Invalid reply_to',
        code: 'invalid_reply_to',
      });
    }
    expect(await countRows(t.db, 'comments')).toBe(before);
    // 0, absent or not a number: a comment of its own.
    expect((await post(t.client(), sid, { reply_to: 0 })).body.reply_to).toBeNull();
  });

  it('a page counts top-level comments and brings their replies; a hidden comment takes its replies from visitors', async () => {
    const sid = await t.streamer();
    const tops = [];
    for (let i = 0; i < 3; i++) tops.push((await post(t.client(), sid, { body: `top ${i}` })).body.id);
    const r0 = (await post(t.client(), sid, { reply_to: tops[0], body: 'reply to 0' })).body.id;
    const r2 = (await post(t.client(), sid, { reply_to: tops[2], body: 'reply to 2' })).body.id;
    expect((await list(sid, '&limit=2')).map((c) => c.id)).toEqual([tops[1], tops[2], r2]);
    expect((await list(sid, `&limit=2&before=${tops[1]}`)).map((c) => c.id)).toEqual([tops[0], r0]);
    await admin.put(`/api/comments?id=${tops[2]}`, { hidden: true });
    expect((await list(sid)).map((c) => c.id)).toEqual([tops[0], tops[1], r0]);
    expect((await list(sid, '', admin)).map((c) => c.id)).toEqual([tops[0], tops[1], tops[2], r0, r2]);
  });
});

describe('likes', () => {
  it('a signed-in user likes once; counts for everyone; mine=1 lists what I like; unlike', async () => {
    const sid = await t.streamer();
    const id = (await post(t.client(), sid)).body.id;
    const u = await t.signedIn(await t.user());
    const v = await t.signedIn(await t.user());
    expect((await u.put(`/api/comments?id=${id}&like=1`, { liked: true })).body).toEqual({
      ok: true,
      likes: 1,
    });
    expect((await u.put(`/api/comments?id=${id}&like=1`, { liked: true })).body).toEqual({
      ok: true,
      likes: 1,
    });
    expect((await v.put(`/api/comments?id=${id}&like=1`, { liked: true })).body).toEqual({
      ok: true,
      likes: 2,
    });
    expect((await list(sid))[0].likes).toBe(2);
    expect((await u.get(`/api/comments?streamer_id=${sid}&mine=1`)).body).toEqual({
      liked: [id],
      own: [],
      held: [],
    });
    expect((await u.put(`/api/comments?id=${id}&like=1`, { liked: false })).body).toEqual({
      ok: true,
      likes: 1,
    });
    expect((await u.get(`/api/comments?streamer_id=${sid}&mine=1`)).body).toEqual({
      liked: [],
      own: [],
      held: [],
    });
  });

  it('concurrent likes by one user count once', async () => {
    const sid = await t.streamer();
    const id = (await post(t.client(), sid)).body.id;
    const u = await t.signedIn(await t.user());
    const answers = await Promise.all(
      Array.from({ length: 15 }, () => u.put(`/api/comments?id=${id}&like=1`, { liked: true })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect((await list(sid))[0].likes).toBe(1);
  });

  it('guests get 401, banned users 403, a hidden comment 404', async () => {
    const sid = await t.streamer();
    const id = (await post(t.client(), sid)).body.id;
    expect((await t.client().put(`/api/comments?id=${id}&like=1`, { liked: true })).status).toBe(401);
    expect((await t.client().get(`/api/comments?streamer_id=${sid}&mine=1`)).status).toBe(401);
    const bannedUser = await t.user({}, { banned: true });
    expect(
      (await (await t.signedIn(bannedUser)).put(`/api/comments?id=${id}&like=1`, { liked: true })).body,
    ).toEqual({
      error: 'Účet je zablokován',
      code: 'banned',
    });
    await admin.put(`/api/comments?id=${id}`, { hidden: true });
    const u = await t.signedIn(await t.user());
    expect((await u.put(`/api/comments?id=${id}&like=1`, { liked: true })).status).toBe(404);
  });
});

describe('the audience score', () => {
  it('signed-in visitors score 1-10; the average to one decimal and the count sit on the item; the order stays the staff rating', async () => {
    const low = await t.streamer('Audience Low', { s: 1, g: 1, a: 1, v: 1, n: 1, ns: 1, o: 1 });
    const high = await t.streamer('Audience High', { s: 9, g: 9, a: 9, v: 9, n: 9, ns: 9, o: 9 });
    const voters = [await t.signedIn(await t.user()), await t.signedIn(await t.user())];
    expect((await voters[0]!.put(`/api/votes?streamer_id=${low}`, { score: 10 })).body).toEqual({ ok: true });
    await voters[1]!.put(`/api/votes?streamer_id=${low}`, { score: 5 });
    await voters[0]!.put(`/api/votes?streamer_id=${high}`, { score: '15' });
    const items = (await t.client().get('/api/streamers')).body as any[];
    const byId = (id: number) => items.find((s) => s.id === id);
    expect([byId(low).audience_score, byId(low).audience_votes]).toEqual([7.5, 2]);
    expect([byId(high).audience_score, byId(high).audience_votes]).toEqual([10, 1]);
    expect(items.findIndex((s) => s.id === high)).toBeLessThan(items.findIndex((s) => s.id === low));
    expect((await voters[0]!.get('/api/votes?mine=1')).body).toEqual({ votes: { [low]: 10, [high]: 10 } });
    await voters[0]!.put(`/api/votes?streamer_id=${low}`, { score: 0 });
    const after = (await t.client().get(`/api/streamers?id=${low}`)).body;
    expect([after.audience_score, after.audience_votes]).toEqual([5, 1]);
  });

  it('averages round half up; none is null', async () => {
    const sid = await rated();
    expect((await t.client().get(`/api/streamers?id=${sid}`)).body).toMatchObject({
      audience_score: null,
      audience_votes: 0,
    });
    for (const score of [1, 1, 2])
      await (await t.signedIn(await t.user())).put(`/api/votes?streamer_id=${sid}`, { score });
    // 4/3 = 1.333... -> 1.3; then with a 2: 6/4 = 1.5 exactly
    expect((await t.client().get(`/api/streamers?id=${sid}`)).body.audience_score).toBe(1.3);
    await (await t.signedIn(await t.user())).put(`/api/votes?streamer_id=${sid}`, { score: 2 });
    expect((await t.client().get(`/api/streamers?id=${sid}`)).body.audience_score).toBe(1.5);
    const five = await rated();
    for (const score of [1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]) {
      await (await t.signedIn(await t.user())).put(`/api/votes?streamer_id=${five}`, { score });
    }
    // 39/20 = 1.95: half up gives 2
    expect((await t.client().get(`/api/streamers?id=${five}`)).body.audience_score).toBe(2);
  });

  it('one vote per user even when fired at once; only streamers of the Public view; banned 403; guests 401', async () => {
    const sid = await rated();
    const u = await t.signedIn(await t.user());
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => u.put(`/api/votes?streamer_id=${sid}`, { score: (i % 10) + 1 })),
    );
    const rows = await t.db.selectFrom('votes').selectAll().where('streamer_id', '=', sid).execute();
    expect(rows).toHaveLength(1);
    const unrated = await t.streamer();
    expect((await u.put(`/api/votes?streamer_id=${unrated}`, { score: 5 })).body).toEqual({
      error: 'Streamer not found',
      code: 'streamer_not_found',
    });
    expect((await u.put('/api/votes', { score: 5 })).body.code).toBe('missing_streamer_id');
    const banned = await t.signedIn(await t.user({}, { banned: true }));
    expect((await banned.put(`/api/votes?streamer_id=${sid}`, { score: 5 })).body).toEqual({
      error: 'Účet je zablokován',
      code: 'banned',
    });
    expect((await t.client().put(`/api/votes?streamer_id=${sid}`, { score: 5 })).status).toBe(401);
    expect((await t.client().get('/api/votes?mine=1')).status).toBe(401);
  });
});

describe('rating history', () => {
  it('every rating write adds a row; whoever sees the streamer reads it oldest first, without notes', async () => {
    const sid = await t.streamer();
    await admin.put(`/api/streamers?id=${sid}`, { r: { s: 3 }, reward: 40, notes: 'secret' });
    t.clock.advance(1000);
    await admin.put(`/api/streamers?id=${sid}`, { r: { s: 3, g: 4 }, reward: 50 });
    t.clock.offset = 0;
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    await mod.put(`/api/streamers?id=${sid}`, { r: { s: 1 } });
    const history = (await t.client().get(`/api/streamers?id=${sid}&history=1`)).body as any[];
    expect(history.map((h) => [h.sum, h.reward])).toEqual([
      [3, 40],
      [7, 50],
      [1, 31],
    ]);
    expect(history[1]).toEqual({
      at: expect.stringMatching(/Z$/),
      r: { s: 3, g: 4, a: 0, v: 0, n: 0, ns: 0, o: 0 },
      sum: 7,
      reward: 50,
    });
    expect(JSON.stringify(history)).not.toContain('secret');
  });

  it('a streamer outside the caller’s view is 404', async () => {
    const sid = await t.streamer();
    expect((await t.client().get(`/api/streamers?id=${sid}&history=1`)).status).toBe(404);
    expect((await admin.get(`/api/streamers?id=${sid}&all=1&history=1`)).body).toEqual([]);
  });

  it('two editors of one rating: the one who started from an older rating gets 409 and nothing changes', async () => {
    const sid = await rated();
    const [first] = (await admin.get(`/api/streamers?id=${sid}&all=1&history=1`)).body as any[];
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    expect((await mod.put(`/api/streamers?id=${sid}`, { r: { s: 9 }, base_at: first.at })).status).toBe(200);
    const stale = await admin.put(`/api/streamers?id=${sid}`, { r: { s: 2 }, reward: 1, base_at: first.at });
    expect(stale.body).toEqual({ error: 'The rating was changed by someone else', code: 'rating_changed' });
    expect((await admin.get(`/api/streamers?id=${sid}&all=1`)).body.r.s).toBe(9);
    // Unrated: base_at null.
    const fresh = await t.streamer();
    expect((await admin.put(`/api/streamers?id=${fresh}`, { r: { s: 1 }, base_at: null })).status).toBe(200);
    expect((await admin.put(`/api/streamers?id=${fresh}`, { r: { s: 2 }, base_at: null })).status).toBe(409);
  });

  it('concurrent editors from the same starting point: exactly one wins', async () => {
    const sid = await rated();
    const [first] = (await admin.get(`/api/streamers?id=${sid}&all=1&history=1`)).body as any[];
    const editors = [
      admin,
      await t.signedIn(await t.user({}, { mod: true })),
      await t.signedIn(await t.user({}, { mod: true })),
    ];
    const answers = await Promise.all(
      editors.map((c, i) => c.put(`/api/streamers?id=${sid}`, { r: { s: i + 1 }, base_at: first.at })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
  });
});

describe('the administrator changes a platform', () => {
  it('platform is kept when absent, set when given', async () => {
    const sid = await t.streamer();
    await admin.put(`/api/streamers?id=${sid}`, { r: {}, platform: 'provider_b' });
    expect((await admin.get(`/api/streamers?id=${sid}&all=1`)).body.platform).toBe('provider_b');
    await admin.put(`/api/streamers?id=${sid}`, { r: {} });
    expect((await admin.get(`/api/streamers?id=${sid}&all=1`)).body.platform).toBe('provider_b');
    await admin.put(`/api/streamers?id=${sid}`, { r: {}, platform: 'anything' });
    expect((await admin.get(`/api/streamers?id=${sid}&all=1`)).body.platform).toBe('provider_a');
  });

  it('the channel a streamer falls back on has no diacritics', () => {
    expect(channelOf('Jirka Král', '')).toBe('jirkakral');
    expect(channelOf('Jirka Král', ' JirkaK ')).toBe('jirkak');
  });
});

describe('team owners', () => {
  async function team() {
    const owner = await t.user();
    const group = (await admin.post('/api/rater_groups', { name: `Owned ${owner.id}` })).body;
    await admin.post('/api/rater_groups?members=1', {
      group_id: group.id,
      login: owner.login,
      role: 'owner',
    });
    return { owner, group, client: await t.signedIn(owner) };
  }

  it('my=1 carries the role; an owner adds and removes raters of their own team', async () => {
    const { owner, group, client } = await team();
    expect((await client.get('/api/rater_groups?my=1')).body).toEqual([
      { id: group.id, name: group.name, streamer_id: null, role: 'owner' },
    ]);
    const rater = await t.user();
    const added = await client.post('/api/team_members', {
      group_id: group.id,
      login: rater.login.toUpperCase(),
    });
    expect(added.body).toEqual({ ok: true, display_name: rater.display_name, role: 'rater' });
    const members = (await admin.get('/api/rater_groups')).body.find((g: any) => g.id === group.id).members;
    expect(members.map((m: any) => [m.id, m.role])).toEqual([
      [owner.id, 'owner'],
      [rater.id, 'rater'],
    ]);
    const memberId = members[1].member_id;
    expect((await client.del(`/api/team_members?id=${memberId}`)).body).toEqual({ ok: true });
    const entry = (await admin.get('/api/audit')).body.find((e: any) => e.action === 'member.remove');
    expect(entry).toMatchObject({ actor: 'user', actor_user_id: owner.id, actor_name: owner.display_name });
  });

  it('an owner never demotes themselves, removes no owner and touches no other team: 403 Owner only', async () => {
    const mine = await team();
    const theirs = await team();
    const ownerOnly = { error: 'Owner only', code: 'owner_only' };
    expect(
      (await mine.client.post('/api/team_members', { group_id: mine.group.id, login: mine.owner.login }))
        .body,
    ).toEqual(ownerOnly);
    const ownMember = (await admin.get('/api/rater_groups')).body.find((g: any) => g.id === mine.group.id)
      .members[0];
    expect((await mine.client.del(`/api/team_members?id=${ownMember.member_id}`)).body).toEqual(ownerOnly);
    const rater = await t.user();
    expect(
      (await mine.client.post('/api/team_members', { group_id: theirs.group.id, login: rater.login })).body,
    ).toEqual(ownerOnly);
    const theirOwner = (await admin.get('/api/rater_groups')).body.find((g: any) => g.id === theirs.group.id)
      .members[0];
    expect((await mine.client.del(`/api/team_members?id=${theirOwner.member_id}`)).body).toEqual(ownerOnly);
  });

  it('a timed-out owner adds and removes no rater (403 Účet je dočasně omezen, nothing changed) and still reads the team', async () => {
    const { owner, group, client } = await team();
    const kept = await t.user();
    await client.post('/api/team_members', { group_id: group.id, login: kept.login });
    expect((await admin.put(`/api/users?id=${owner.id}`, { timeout_hours: 5 })).status).toBe(200);
    const timedOut = { error: 'Účet je dočasně omezen', code: 'timed_out' };
    const members = async () =>
      (await admin.get('/api/rater_groups')).body.find((g: any) => g.id === group.id).members;
    const before = await members();
    const rater = await t.user();
    const added = await client.post('/api/team_members', { group_id: group.id, login: rater.login });
    expect([added.status, added.body]).toEqual([403, timedOut]);
    const removed = await client.del(`/api/team_members?id=${before[1].member_id}`);
    expect([removed.status, removed.body]).toEqual([403, timedOut]);
    expect(await members()).toEqual(before);
    expect((await client.get(`/api/team_members?group_id=${group.id}`)).status).toBe(200);
    // The time-out lifted, the owner manages the team again.
    await admin.put(`/api/users?id=${owner.id}`, { timeout_hours: 0 });
    expect((await client.post('/api/team_members', { group_id: group.id, login: rater.login })).status).toBe(
      200,
    );
  });

  it("a team's own members list its members, the owner first; nobody else does", async () => {
    const { owner, group, client } = await team();
    const rater = await t.user();
    await client.post('/api/team_members', { group_id: group.id, login: rater.login });
    const expected = [
      { role: 'owner', id: owner.id, login: owner.login, display_name: owner.display_name },
      { role: 'rater', id: rater.id, login: rater.login, display_name: rater.display_name },
    ];
    const listed = (await client.get(`/api/team_members?group_id=${group.id}`)).body;
    expect(listed).toMatchObject(expected);
    expect(Object.keys(listed[0]).sort()).toEqual(
      ['avatar', 'display_name', 'id', 'login', 'member_id', 'provider', 'role'].sort(),
    );
    const asRater = await t.signedIn(rater);
    expect((await asRater.get(`/api/team_members?group_id=${group.id}`)).body).toMatchObject(expected);
    const stranger = await t.signedIn(await t.user());
    for (const id of [group.id, 99999999]) {
      expect((await stranger.get(`/api/team_members?group_id=${id}`)).body).toEqual({
        error: 'Not a member of this team',
        code: 'not_a_member',
      });
    }
    expect((await t.client().get(`/api/team_members?group_id=${group.id}`)).body.code).toBe('not_logged_in');
    expect((await client.get('/api/team_members')).body.code).toBe('missing_group_id');
    expect((await client.get('/api/team_members?group_id=0')).body.code).toBe('missing_group_id');
  });

  it('a rater is no owner; a visitor is not signed in; the add-member messages stay SPEC.md’s', async () => {
    const { group, client } = await team();
    const rater = await t.user();
    await client.post('/api/team_members', { group_id: group.id, login: rater.login });
    const asRater = await t.signedIn(rater);
    expect((await asRater.post('/api/team_members', { group_id: group.id, login: 'x' })).body.code).toBe(
      'owner_only',
    );
    expect((await t.client().post('/api/team_members', { group_id: group.id, login: 'x' })).body).toEqual({
      error: 'Not logged in',
      code: 'not_logged_in',
    });
    expect(
      (await client.post('/api/team_members', { group_id: group.id, login: 'nobody_here' })).body.error,
    ).toBe("User 'nobody_here' on provider_a has not logged in yet or is banned.");
    expect((await client.post('/api/team_members', {})).body.code).toBe('missing_group_or_login');
    expect((await client.del('/api/team_members')).body.code).toBe('missing_member_id');
  });
});

describe('your data', () => {
  it('the export holds my record and everything tied to me, nobody else’s', async () => {
    const sid = await rated();
    const me = await t.user({ login: 'export_me', display_name: 'Export Me' });
    const c = await t.signedIn(me);
    const mine = (await post(c, sid, { body: 'my own words' })).body.id;
    const theirs = (await post(await t.signedIn(await t.user()), sid, { body: 'someone else' })).body.id;
    await c.put(`/api/comments?id=${theirs}&like=1`, { liked: true });
    await c.put(`/api/votes?streamer_id=${sid}`, { score: 7 });
    await c.post('/api/reports', { comment_id: theirs, reason: 'abuse', note: 'rude' });
    const res = await c.get('/api/account/export');
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="streamer-rating-export_me.json"',
    );
    expect(res.body.user).toMatchObject({ id: me.id, login: 'export_me', banned: false, is_admin: false });
    expect(res.body.comments.map((x: any) => [x.id, x.body])).toEqual([[mine, 'my own words']]);
    expect(res.body.likes.map((x: any) => x.comment_id)).toEqual([theirs]);
    expect(res.body.votes).toEqual([expect.objectContaining({ streamer_id: sid, score: 7 })]);
    expect(res.body.reports).toEqual([
      expect.objectContaining({ comment_id: theirs, reason: 'abuse', note: 'rude' }),
    ]);
    expect(JSON.stringify(res.body)).not.toContain('someone else');
    expect((await t.client().get('/api/account/export')).status).toBe(401);
  });

  it('deleting an account: confirm is the login; comments stay by Anonym; everything else goes; sessions end', async () => {
    const sid = await rated();
    const me = await t.user({ login: 'Leave_Me', display_name: 'Leaving Person' });
    const c = await t.signedIn(me);
    const other = await t.signedIn(me);
    const mine = (await post(c, sid, { body: 'my words stay' })).body.id;
    await c.put(`/api/comments?id=${mine}&like=1`, { liked: true });
    await c.put(`/api/votes?streamer_id=${sid}`, { score: 7 });
    await admin.put(`/api/users?id=${me.id}`, { is_mod: true });
    expect((await c.del('/api/account', { body: { confirm: 'someone' } })).body).toEqual({
      error: 'Confirmation does not match',
      code: 'confirmation_mismatch',
    });
    expect(
      await t.db.selectFrom('users').select('id').where('id', '=', me.id).executeTakeFirst(),
    ).toBeDefined();
    expect((await c.del('/api/account', { body: { confirm: ' leave_me ' } })).body).toEqual({ ok: true });
    const comment = (await list(sid)).find((x) => x.id === mine);
    expect(comment).toMatchObject({ author: 'Anonym', user_id: null, likes: 0, body: 'my words stay' });
    for (const table of ['comment_likes', 'votes', 'moderators', 'sessions'] as const) {
      const rows = await t.db.selectFrom(table).selectAll().where('user_id', '=', me.id).execute();
      expect(rows, table).toEqual([]);
    }
    expect((await other.get('/api/oauth/me')).body.user).toBeNull();
    const audit = JSON.stringify((await admin.get('/api/audit')).body);
    expect(audit).not.toContain('Leave_Me');
    expect((await admin.get('/api/audit')).body.filter((e: any) => e.actor_user_id === me.id)).toEqual([]);
  });

  it("the confirmation folds as names do, but another user's login never confirms (modern is not rnodern)", async () => {
    const me = await t.user({ login: 'modern', provider: 'provider_a' });
    await t.user({ login: 'rnodern', provider: 'provider_b' });
    const c = await t.signedIn(me);
    const refused = { error: 'Confirmation does not match', code: 'confirmation_mismatch' };
    // Folded alike (m is rn to the skeleton), but it is someone else's login.
    expect((await c.del('/api/account', { body: { confirm: 'rnodern' } })).body).toEqual(refused);
    expect((await c.del('/api/account', { body: { confirm: 'RNODERN ' } })).body).toEqual(refused);
    expect((await c.del('/api/account', { body: { confirm: 'someone' } })).body).toEqual(refused);
    // The own login in another spelling (Cyrillic о, spaces, case) is still the own login.
    expect((await c.del('/api/account', { body: { confirm: ' M\u043edern ' } })).body).toEqual({ ok: true });
  });

  it('with delete_comments the comments go too; a banned user may leave as well', async () => {
    const sid = await rated();
    const me = await t.user({ login: 'gone_fully' });
    const c = await t.signedIn(me);
    const mine = (await post(c, sid)).body.id;
    await admin.put(`/api/users?id=${me.id}`, { banned: true });
    expect((await c.get('/api/account/export')).status).toBe(200);
    expect(
      (await c.del('/api/account', { body: { confirm: 'gone_fully', delete_comments: true } })).status,
    ).toBe(200);
    expect((await list(sid, '', admin)).map((x) => x.id)).not.toContain(mine);
  });
});
