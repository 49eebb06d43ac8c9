import { describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';

/**
 * Why a held comment waits (docs/decisions.md "Held comments"): the moderation queue's
 * items tell staff, the first that applies: the author's account (a banned user's possible
 * return), the administrator's words (named), a guest's link, or the guest hold.
 */
const t = await useApp({ TRUST_PROXY: '127.0.0.1' });
const admin = await t.admin();
const moderator = await t.signedIn(await t.user({}, { mod: true }));
const sid = await t.streamer('Held For Streamer');
const guest = (address: string) => t.client({ 'x-forwarded-for': address });
const post = async (c: Client, body: string) => {
  const res = await c.post('/api/comments', { streamer_id: sid, body });
  expect(res.status).toBe(201);
  return res.body.id as number;
};
const queued = async (id: number) => {
  const res = await moderator.get('/api/moderation/comments?filter=recent&limit=100');
  expect(res.status).toBe(200);
  const item = res.body.find((c: { id: number }) => c.id === id);
  return { held_for: item.held_for, held_words: item.held_words };
};

describe('the queue says why a comment waits', () => {
  it("names the account, the words, a guest's link and the guest hold, in that order", async () => {
    expect(
      (await admin.put('/api/settings', { hold_words: ['free coins', 'scam'], guest_hold: 'all' })).status,
    ).toBe(200);
    const u = await t.user();
    await t.db.updateTable('users').set({ held: 1 }).where('id', '=', u.id).execute();
    const account = await post(await t.signedIn(u), 'a scam here, from a held account');
    const words = await post(await t.signedIn(await t.user()), 'FREE coins and a S.C.A.M');
    const guestWords = await post(guest('198.51.100.7'), 'scam at https://example.com');
    const link = await post(guest('198.51.100.8'), 'see https://example.com');
    const plain = await post(guest('198.51.100.9'), 'just a guest');
    const published = await post(await t.signedIn(await t.user()), 'nothing to hold');

    expect(await queued(account)).toEqual({ held_for: 'account', held_words: ['scam'] });
    expect(await queued(words)).toEqual({ held_for: 'words', held_words: ['free coins', 'scam'] });
    expect(await queued(guestWords)).toEqual({ held_for: 'words', held_words: ['scam'] });
    expect(await queued(link)).toEqual({ held_for: 'link', held_words: [] });
    expect(await queued(plain)).toEqual({ held_for: 'guest', held_words: [] });
    expect(await queued(published)).toEqual({ held_for: null, held_words: [] });

    // A word taken off the list since: still `words`, with none left to name.
    expect((await admin.put('/api/settings', { hold_words: ['free coins'] })).status).toBe(200);
    expect(await queued(words)).toEqual({ held_for: 'words', held_words: ['free coins'] });
    expect((await admin.put('/api/settings', { hold_words: [] })).status).toBe(200);
    expect(await queued(words)).toEqual({ held_for: 'words', held_words: [] });
    expect(await queued(guestWords)).toEqual({ held_for: 'link', held_words: [] });
  });
});
