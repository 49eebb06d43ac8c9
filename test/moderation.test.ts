import { describe, expect, it } from 'vitest';
import { countRows, useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';

/** DECISIONS.md "Third wave": reports and the moderation queue. */
const t = await useApp({ TRUST_PROXY: '127.0.0.1' });
const admin = await t.admin();
const from = (address: string) => t.client({ 'x-forwarded-for': address });
const post = async (c: Client, streamer_id: number, body = 'a comment to moderate') => {
  const res = await c.post('/api/comments', { streamer_id, body });
  expect(res.status).toBe(201);
  return res.body.id as number;
};
const report = (c: Client, comment_id: unknown, extra: Record<string, unknown> = {}) =>
  c.post('/api/reports', { comment_id, reason: 'spam', ...extra });
const openReports = async (commentId: number) =>
  (
    await t.db
      .selectFrom('reports')
      .selectAll()
      .where('comment_id', '=', commentId)
      .where('closed_at', 'is', null)
      .execute()
  ).length;
const bulk = (body: Record<string, unknown>, c: Client = admin) => c.put('/api/moderation/comments', body);

describe('POST /api/reports', () => {
  it('anyone reports a comment once: a repeat answers 201 and counts once; each reporter counts', async () => {
    const sid = await t.streamer();
    const id = await post(from('203.0.113.1'), sid);
    const guest = from('203.0.113.2');
    expect(await report(guest, id).then((r) => [r.status, r.body])).toEqual([201, { ok: true }]);
    expect((await report(guest, id, { reason: 'abuse' })).status).toBe(201);
    expect(await openReports(id)).toBe(1);
    const user = await t.signedIn(await t.user());
    user.defaultHeaders['x-forwarded-for'] = '203.0.113.2';
    expect((await report(user, id)).status).toBe(201);
    expect((await report(user, id)).status).toBe(201);
    expect(await openReports(id)).toBe(2);
    const items = (await admin.get(`/api/comments?streamer_id=${sid}`)).body;
    expect(items[0].reports).toBe(2);
  });

  it('concurrent reports by one reporter count once', async () => {
    const sid = await t.streamer();
    const id = await post(from('203.0.113.3'), sid);
    const user = await t.signedIn(await t.user());
    const guest = from('203.0.113.4');
    const answers = await Promise.all([
      ...Array.from({ length: 12 }, () => report(user, id)),
      ...Array.from({ length: 12 }, () => report(guest, id)),
    ]);
    expect(answers.map((a) => a.status)).toEqual(Array<number>(24).fill(201));
    expect(await openReports(id)).toBe(2);
  });

  it('reasons other than spam, abuse and other count as other; the note is trimmed and cut to 500', async () => {
    const sid = await t.streamer();
    const id = await post(from('203.0.113.5'), sid);
    await report(from('203.0.113.6'), id, { reason: 'nonsense', note: `  ${'ř'.repeat(600)}  ` });
    const row = await t.db
      .selectFrom('reports')
      .selectAll()
      .where('comment_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.reason).toBe('other');
    expect([...row.note].length).toBe(500);
    expect(row.reporter).toMatch(/^g:[0-9a-f]{64}$/);
  });

  it('an unknown or hidden comment is 404 Comment not found; a missing id is 400; nothing is stored', async () => {
    const sid = await t.streamer();
    const id = await post(from('203.0.113.7'), sid);
    await admin.put(`/api/comments?id=${id}`, { hidden: true });
    const before = await t.db.selectFrom('reports').selectAll().execute();
    const notFound = { error: 'Comment not found', code: 'comment_not_found' };
    expect(await report(t.client(), id).then((r) => [r.status, r.body])).toEqual([404, notFound]);
    expect(await report(t.client(), 99999999).then((r) => [r.status, r.body])).toEqual([404, notFound]);
    expect(await report(t.client(), undefined).then((r) => [r.status, r.body])).toEqual([
      400,
      { error: 'Missing comment_id', code: 'missing_comment_id' },
    ]);
    expect(await t.db.selectFrom('reports').selectAll().execute()).toEqual(before);
  });
});

describe('the moderation queue', () => {
  it('reported: comments with open reports of every streamer, most reports first, then newest', async () => {
    const s1 = await t.streamer('Queue One');
    const s2 = await t.streamer('Queue Two');
    const one = await post(from('203.0.113.10'), s1, 'one report');
    const three = await post(from('203.0.113.11'), s2, 'three reports');
    const alsoOne = await post(from('203.0.113.12'), s1, 'one report, newer');
    await post(from('203.0.113.13'), s1, 'never reported');
    for (const [id, n] of [
      [one, 1],
      [three, 3],
      [alsoOne, 1],
    ] as const) {
      for (let i = 0; i < n; i++) await report(from(`198.51.100.${i + 1}`), id);
    }
    const queue = (await admin.get('/api/moderation/comments?filter=reported')).body as any[];
    const mine = queue.filter((c) => [one, three, alsoOne].includes(c.id));
    expect(mine.map((c) => [c.id, c.reports])).toEqual([
      [three, 3],
      [alsoOne, 1],
      [one, 1],
    ]);
    expect(queue.every((c) => c.reports > 0)).toBe(true);
    expect(mine[0]).toMatchObject({
      streamer_id: s2,
      streamer_name: 'Queue Two',
      hidden: false,
      body: 'three reports',
      guest_tag: expect.stringMatching(/^[0-9a-f]{10}$/),
    });
    // Reported is the default filter.
    expect((await admin.get('/api/moderation/comments')).body.map((c: any) => c.id)).toEqual(
      queue.map((c) => c.id),
    );
  });

  it('recent: every comment, hidden ones too, newest first, paged by before; limit 1-100', async () => {
    const sid = await t.streamer();
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await post(from('203.0.113.20'), sid, `recent ${i}`));
    const user = await t.signedIn(await t.user());
    ids.push(await post(user, sid, 'by a user'));
    await admin.put(`/api/comments?id=${ids[1]}`, { hidden: true });
    const page1 = (await admin.get('/api/moderation/comments?filter=recent&limit=3')).body as any[];
    expect(page1.map((c) => c.id)).toEqual([ids[4], ids[3], ids[2]]);
    expect(page1[0].guest_tag).toBeNull();
    const page2 = (await admin.get(`/api/moderation/comments?filter=recent&limit=2&before=${ids[2]}`))
      .body as any[];
    expect(page2.map((c) => [c.id, c.hidden])).toEqual([
      [ids[1], true],
      [ids[0], false],
    ]);
    // Issue 30: a limit outside 1..100 is refused, not clamped.
    expect((await admin.get('/api/moderation/comments?filter=recent&limit=0')).status).toBe(400);
    expect((await admin.get('/api/moderation/comments?filter=recent&limit=500')).body.code).toBe(
      'invalid_limit',
    );
  });

  it("says whether a signed-in author is banned now (a guest's never is), the page offering them no time-out", async () => {
    const sid = await t.streamer();
    const [kept, banned] = [await t.user(), await t.user()];
    const ids = [
      await post(from('203.0.113.21'), sid, 'by a guest'),
      await post(await t.signedIn(kept), sid, 'by a user in good standing'),
      await post(await t.signedIn(banned), sid, 'by a user banned since'),
    ];
    expect((await admin.put(`/api/users?id=${banned.id}`, { banned: true })).status).toBe(200);
    const flags = async () =>
      ((await admin.get('/api/moderation/comments?filter=recent&limit=3')).body as any[]).map((c) => [
        c.id,
        c.user_banned,
      ]);
    expect(await flags()).toEqual([
      [ids[2], true],
      [ids[1], false],
      [ids[0], false],
    ]);
    expect((await admin.put(`/api/users?id=${banned.id}`, { banned: false })).status).toBe(200);
    expect((await flags())[0]).toEqual([ids[2], false]);
  });

  it('is for staff only', async () => {
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    expect((await mod.get('/api/moderation/comments')).status).toBe(200);
    for (const c of [t.client(), await t.signedIn(await t.user())]) {
      expect((await c.get('/api/moderation/comments')).status).toBe(401);
      expect((await bulk({ ids: [1], action: 'hide' }, c)).status).toBe(401);
    }
  });
});

describe('bulk actions', () => {
  it('by ids: hide (closing the reports), show, dismiss and delete answer how many changed', async () => {
    const sid = await t.streamer();
    const a = await post(from('203.0.113.30'), sid);
    const b = await post(from('203.0.113.31'), sid);
    await report(from('198.51.100.30'), a);
    await report(from('198.51.100.30'), b);
    expect((await bulk({ ids: [a], action: 'hide' })).body).toEqual({ ok: true, count: 1 });
    expect((await bulk({ ids: [a], action: 'hide' })).body).toEqual({ ok: true, count: 0 });
    expect(await openReports(a)).toBe(0);
    expect((await t.client().get(`/api/comments?streamer_id=${sid}`)).body.map((c: any) => c.id)).toEqual([
      b,
    ]);
    expect((await bulk({ ids: [a, b], action: 'show' })).body).toEqual({ ok: true, count: 1 });
    expect((await bulk({ ids: [a, b], action: 'dismiss' })).body).toEqual({ ok: true, count: 1 });
    expect(await openReports(b)).toBe(0);
    expect((await bulk({ ids: [a, b, 99999999], action: 'delete' })).body).toEqual({ ok: true, count: 2 });
    expect((await t.client().get(`/api/comments?streamer_id=${sid}`)).body).toEqual([]);
  });

  it("by user_id: every comment of one author on every streamer; nobody else's", async () => {
    const s1 = await t.streamer();
    const s2 = await t.streamer();
    const troll = await t.user();
    const tc = await t.signedIn(troll);
    await post(tc, s1);
    await post(tc, s2);
    const other = await post(await t.signedIn(await t.user()), s1);
    expect((await bulk({ user_id: troll.id, action: 'hide' })).body).toEqual({ ok: true, count: 2 });
    expect((await t.client().get(`/api/comments?streamer_id=${s1}`)).body.map((c: any) => c.id)).toEqual([
      other,
    ]);
    expect((await bulk({ user_id: troll.id, action: 'delete' })).body).toEqual({ ok: true, count: 2 });
  });

  it("by guest_tag: every guest comment from that address, as staff see the tag; a user's on that address is spared", async () => {
    const sid = await t.streamer();
    const troll = from('203.0.113.40');
    await post(troll, sid);
    await post(troll, sid);
    const user = await t.signedIn(await t.user());
    user.defaultHeaders['x-forwarded-for'] = '203.0.113.40';
    const spared = await post(user, sid);
    const other = await post(from('203.0.113.41'), sid);
    const items = (await admin.get(`/api/comments?streamer_id=${sid}`)).body as any[];
    const tag = items[0].guest_tag as string;
    expect((await bulk({ guest_tag: tag.toUpperCase(), action: 'hide' })).body).toEqual({
      ok: true,
      count: 2,
    });
    expect((await t.client().get(`/api/comments?streamer_id=${sid}`)).body.map((c: any) => c.id)).toEqual([
      spared,
      other,
    ]);
  });

  it.each([
    [{ action: 'hide' }],
    [{ ids: [1], user_id: 1, action: 'hide' }],
    [{ ids: [], action: 'hide' }],
    [{ ids: Array.from({ length: 101 }, (_, i) => i + 1), action: 'hide' }],
    [{ ids: [1, 0], action: 'hide' }],
    [{ ids: 'x', action: 'hide' }],
    [{ user_id: 'x', action: 'hide' }],
    [{ guest_tag: 'xyz', action: 'hide' }],
    [{ guest_tag: 'abcdef12', action: 'hide' }],
  ])('%j is 400 invalid_selector and changes nothing', async (body) => {
    const before = await countRows(t.db, 'comments');
    const res = await bulk(body);
    expect([res.status, res.body.code]).toEqual([400, 'invalid_selector']);
    expect(await countRows(t.db, 'comments')).toBe(before);
  });

  it('an unknown action is 400 invalid_action', async () => {
    for (const action of [undefined, 'purge', 1]) {
      expect((await bulk({ ids: [1], action })).body).toEqual({
        error: 'Invalid action',
        code: 'invalid_action',
      });
    }
  });

  it('every bulk action is in the audit log, naming who did it and how many changed', async () => {
    const sid = await t.streamer();
    const id = await post(from('203.0.113.50'), sid);
    const modUser = await t.user({}, { mod: true });
    await bulk({ ids: [id], action: 'hide' }, await t.signedIn(modUser));
    const entry = (await admin.get('/api/audit')).body.find((e: any) => e.action === 'comment.bulk');
    expect(entry).toMatchObject({
      actor: 'user',
      actor_user_id: modUser.id,
      params: { action: 'hide', selector: { ids: [id] }, count: 1 },
    });
  });

  it('a bulk hide by user and new comments at once: each comment is hidden or visible, none lost, the count exact', async () => {
    const sid = await t.streamer();
    const troll = await t.user();
    const tc = await t.signedIn(troll);
    for (let i = 0; i < 5; i++) await post(tc, sid, `before ${i}`);
    const [hidden, ...posted] = await Promise.all([
      bulk({ user_id: troll.id, action: 'hide' }),
      ...Array.from({ length: 10 }, (_, i) =>
        tc.post('/api/comments', { streamer_id: sid, body: `during ${i}` }),
      ),
    ]);
    expect(posted.map((p) => p.status)).toEqual(Array<number>(10).fill(201));
    const rows = await t.db.selectFrom('comments').selectAll().where('user_id', '=', troll.id).execute();
    expect(rows).toHaveLength(15);
    expect(rows.filter((r) => r.hidden === 1)).toHaveLength(hidden.body.count);
    expect(hidden.body.count).toBeGreaterThanOrEqual(5);
    expect(rows.every((r) => (r.hidden === 1) === (r.hidden_by === 'staff'))).toBe(true);
  });
});
