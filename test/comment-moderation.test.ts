import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';

const t = await useApp();
let admin: Client;
beforeAll(async () => {
  admin = await t.admin();
});

const MINUTE = 60_000;
const post = (c: Client, streamer_id: number, body: string) => c.post('/api/comments', { streamer_id, body });
const list = async (c: Client, sid: number, q = '') =>
  (await c.get(`/api/comments?streamer_id=${sid}${q}`)).body as any[];

describe('paging (limit, before)', () => {
  it('limit=L gives the newest L in ascending order; before=ID continues below that id', async () => {
    const sid = await t.streamer();
    const ids: number[] = [];
    for (let i = 1; i <= 7; i++) ids.push((await post(t.client(), sid, `comment ${i}`)).body.id);
    expect((await list(t.client(), sid, '&limit=3')).map((c) => c.id)).toEqual(ids.slice(4));
    expect((await list(t.client(), sid, `&limit=3&before=${ids[4]}`)).map((c) => c.id)).toEqual(
      ids.slice(1, 4),
    );
    expect((await list(t.client(), sid, `&limit=3&before=${ids[1]}`)).map((c) => c.id)).toEqual([ids[0]]);
    expect((await list(t.client(), sid)).map((c) => c.id)).toEqual(ids);
  });

  it('a limit outside 1..100 or not an integer is 400 (DECISIONS.md "Names and limits")', async () => {
    const sid = await t.streamer();
    for (let i = 0; i < 3; i++) await post(t.client(), sid, `c${i}x`);
    for (const bad of ['0', '5000', 'junk']) {
      const res = await t.client().get(`/api/comments?streamer_id=${sid}&limit=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe('invalid_limit');
    }
    expect(await list(t.client(), sid, '&limit=100')).toHaveLength(3);
  });
});

describe('hiding comments', () => {
  it('staff hide any comment: left out for everyone else, kept with hidden: true for staff', async () => {
    const sid = await t.streamer();
    const c = (await post(t.client(), sid, 'to be hidden')).body.id;
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    expect((await mod.put(`/api/comments?id=${c}`, { hidden: true })).body).toEqual({ ok: true });
    expect((await list(t.client(), sid)).map((x) => x.id)).not.toContain(c);
    expect((await list(t.client(), sid, '&limit=10')).map((x) => x.id)).not.toContain(c);
    expect((await list(admin, sid)).find((x) => x.id === c)).toMatchObject({ hidden: true });
    const item = (await t.client().get(`/api/streamers?all=1&id=${sid}`)).status;
    expect(item).toBe(404); // not evaluated: not in the public view
    expect((await admin.get(`/api/streamers?all=1&id=${sid}`)).body.comment_count).toBe(0);
    expect((await admin.put(`/api/comments?id=${c}`, { hidden: false })).status).toBe(200);
    expect((await list(t.client(), sid)).map((x) => x.id)).toContain(c);
    expect((await admin.get(`/api/streamers?all=1&id=${sid}`)).body.comment_count).toBe(1);
  });

  it("a hidden comment's replies leave the list and comment_count with it, and come back when it is shown", async () => {
    const sid = await t.streamer();
    const parent = (await post(t.client(), sid, 'a thread')).body.id;
    for (const body of ['first reply', 'second reply'])
      expect(
        (await t.client().post('/api/comments', { streamer_id: sid, body, reply_to: parent })).status,
      ).toBe(201);
    await post(t.client(), sid, 'another thread');
    const count = async () => (await admin.get(`/api/streamers?all=1&id=${sid}`)).body.comment_count;
    expect(await count()).toBe(4);
    await admin.put(`/api/comments?id=${parent}`, { hidden: true });
    // What visitors see, and the count says the same: the other thread alone.
    expect(await list(t.client(), sid)).toHaveLength(1);
    expect(await count()).toBe(1);
    await admin.put(`/api/comments?id=${parent}`, { hidden: false });
    expect(await list(t.client(), sid)).toHaveLength(4);
    expect(await count()).toBe(4);
  });

  it('the author may hide their own, and show again only what they hid themselves', async () => {
    const sid = await t.streamer();
    const author = await t.signedIn(await t.user());
    const c = (await post(author, sid, 'mine')).body.id;
    expect((await author.put(`/api/comments?id=${c}`, { hidden: true })).status).toBe(200);
    expect((await author.put(`/api/comments?id=${c}`, { hidden: false })).status).toBe(200);
    await admin.put(`/api/comments?id=${c}`, { hidden: true });
    expect((await author.put(`/api/comments?id=${c}`, { hidden: false })).body).toEqual({
      error: 'Not your comment',
      code: 'not_your_comment',
    });
    expect((await list(t.client(), sid)).map((x) => x.id)).not.toContain(c);
  });

  it("someone else's comment is 403 Not your comment; not signed in is 401 Unauthorized", async () => {
    const sid = await t.streamer();
    const c = (await post(await t.signedIn(await t.user()), sid, 'theirs')).body.id;
    const other = await t.signedIn(await t.user());
    expect((await other.put(`/api/comments?id=${c}`, { hidden: true })).body).toEqual({
      error: 'Not your comment',
      code: 'not_your_comment',
    });
    expect((await other.put(`/api/comments?id=${c}`, { body: 'edited by someone else' })).status).toBe(403);
    const anon = await t.client().put(`/api/comments?id=${c}`, { hidden: true });
    expect([anon.status, anon.body]).toEqual([401, { error: 'Unauthorized', code: 'unauthorized' }]);
    expect((await list(t.client(), sid)).find((x) => x.id === c)).toMatchObject({
      body: 'theirs',
      hidden: false,
    });
  });

  it('missing id is 400, unknown 404, nothing to change 400', async () => {
    expect((await admin.put('/api/comments', { hidden: true })).body).toEqual({
      error: 'Missing id',
      code: 'missing_id',
    });
    expect((await admin.put('/api/comments?id=99999999', { hidden: true })).body).toEqual({
      error: 'Comment not found',
      code: 'comment_not_found',
    });
    expect((await admin.put('/api/comments?id=1', {})).body).toEqual({
      error: 'Nothing to update',
      code: 'nothing_to_update',
    });
  });
});

describe('editing comments', () => {
  it('the author edits within 15 minutes (body rules apply); edited_at is set; then 403 Edit window closed', async () => {
    const sid = await t.streamer();
    const author = await t.signedIn(await t.user());
    const c = (await post(author, sid, 'first words')).body.id;
    expect((await list(t.client(), sid))[0].edited_at).toBeNull();
    expect((await author.put(`/api/comments?id=${c}`, { body: ' x ' })).body).toEqual({
      error: 'Komentář je příliš krátký',
      code: 'comment_too_short',
    });
    expect((await author.put(`/api/comments?id=${c}`, { body: '\u200b\u200b\u200b' })).body).toEqual({
      error: 'Komentář je příliš krátký',
      code: 'comment_too_short',
    });
    expect((await author.put(`/api/comments?id=${c}`, { body: 'y'.repeat(1001) })).body).toEqual({
      error: 'Komentář je příliš dlouhý (max 1000 znaků)',
      code: 'comment_too_long',
    });
    t.clock.advance(14 * MINUTE);
    expect((await author.put(`/api/comments?id=${c}`, { body: '  better words  ' })).status).toBe(200);
    const edited = (await list(t.client(), sid))[0];
    expect(edited.body).toBe('better words');
    expect(Date.parse(edited.edited_at)).toBeGreaterThan(Date.parse(edited.created_at));
    t.clock.advance(2 * MINUTE);
    expect((await author.put(`/api/comments?id=${c}`, { body: 'too late now' })).body).toEqual({
      error: 'Edit window closed',
      code: 'edit_window_closed',
    });
    expect((await list(t.client(), sid))[0].body).toBe('better words');
  });
});
