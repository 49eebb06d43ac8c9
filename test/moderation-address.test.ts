import { describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';

/**
 * Issue 30 item 18: "all by <guest>" acts on every guest at that address, so the queue tells
 * staff how many comments that is (the page's confirmation says it, and that they share an address).
 */
const t = await useApp({ TRUST_PROXY: '127.0.0.1' });

describe('a bulk action by a guest tag', () => {
  it("the queue item says how many comments the guest's address holds, as many as the action takes", async () => {
    const admin = await t.admin();
    const sid = await t.streamer();
    const guest = t.client();
    for (const [author, body] of [
      ['Pepa', 'first words'],
      ['Pepa', 'second words'],
      ['Jana', 'other guest'],
    ]) {
      expect((await guest.post('/api/comments', { streamer_id: sid, body, author })).status).toBe(201);
    }
    const queue = (await admin.get('/api/moderation/comments?filter=recent')).body;
    const pepa = queue.find((c: { author: string }) => c.author === 'Pepa');
    expect(pepa.address_comments).toBe(3);
    const done = await admin.put('/api/moderation/comments', { guest_tag: pepa.guest_tag, action: 'hide' });
    expect(done.body).toMatchObject({ count: 3 });
  });

  it("the queue lists one address's comments, as its action takes them; an undo by their ids changes only those (issue 45, week 16)", async () => {
    const admin = await t.admin();
    const sid = await t.streamer();
    const guest = t.client({ 'x-forwarded-for': '203.0.113.45' });
    const other = t.client({ 'x-forwarded-for': '203.0.113.46' });
    const ids: number[] = [];
    for (const body of ['one', 'two', 'three']) {
      const res = await guest.post('/api/comments', {
        streamer_id: sid,
        body: `${body} words`,
        author: 'Pepa',
      });
      ids.push(res.body.id);
    }
    expect(
      (await other.post('/api/comments', { streamer_id: sid, body: 'elsewhere', author: 'Jana' })).status,
    ).toBe(201);
    // Hidden before the action by address: the undo must leave it hidden.
    expect((await admin.put('/api/moderation/comments', { ids: [ids[0]], action: 'hide' })).body.count).toBe(
      1,
    );
    const queue = (await admin.get('/api/moderation/comments?filter=recent')).body;
    const tag = queue.find((c: { id: number }) => c.id === ids[1]).guest_tag;
    const listed = (await admin.get(`/api/moderation/comments?filter=recent&guest_tag=${tag.toUpperCase()}`))
      .body;
    expect(listed.map((c: { id: number }) => c.id)).toEqual([...ids].reverse());
    const visible = listed.filter((c: { hidden: boolean }) => !c.hidden).map((c: { id: number }) => c.id);
    expect(visible).toEqual([ids[2], ids[1]]);
    expect((await admin.put('/api/moderation/comments', { guest_tag: tag, action: 'hide' })).body).toEqual({
      ok: true,
      count: 2,
    });
    // The page's undo: the opposite action on the comments it listed as changing.
    expect((await admin.put('/api/moderation/comments', { ids: visible, action: 'show' })).body).toEqual({
      ok: true,
      count: 2,
    });
    const after = (await admin.get(`/api/moderation/comments?filter=recent&guest_tag=${tag}`)).body;
    expect(after.map((c: { id: number; hidden: boolean }) => [c.id, c.hidden])).toEqual([
      [ids[2], false],
      [ids[1], false],
      [ids[0], true],
    ]);
    for (const bad of ['xyz', '12345', '']) {
      const res = await admin.get(`/api/moderation/comments?guest_tag=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid guest_tag', code: 'invalid_field' });
    }
  });
});
