import { describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';

/**
 * Issue 30 item 18: "all by <guest>" acts on every guest at that address, so the queue tells
 * staff how many comments that is (the page's confirmation says it, and that they share an address).
 */
const t = await useApp();

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
});
