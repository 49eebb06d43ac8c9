import { afterAll, describe, expect, it } from 'vitest';
import { startApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';

/**
 * Issue 45 item 5: a banned or timed-out user who signs out and posts as a guest from the same
 * address. A ban remembers the addresses the user's sessions used (not only those of sign-ins),
 * and guest comments from them are held for its 30 days; a time-out refuses guest comments and
 * suggestions from the user's addresses while it lasts. Recording an address is no write per
 * request: only when a session's address changes (or a day later), at most 20 per user.
 */
const t = await startApp({ TRUST_PROXY: '127.0.0.1' });
afterAll(() => t.close());
t.clock.freeze();
const admin = await t.admin();
await admin.put('/api/settings', { guest_hold: 'none' });
const streamerId = await t.streamer('Evasion Stage', { s: 5, g: 5, a: 5, v: 5, n: 5, ns: 5, o: 5 });
const DAY = 86_400_000;
let seq = 0;
const guest = (address: string) => t.client({ 'x-forwarded-for': address });
const at = (address: string) => ({ headers: { 'x-forwarded-for': address } });
const comment = (c: Client, body: string) => c.post('/api/comments', { streamer_id: streamerId, body });
const suggest = (c: Client) =>
  c.post('/api/streamers', { name: `evader${++seq}`, platform: 'provider_a', provider_a: `evader${seq}` });
/** A signed-in user whose session has been used from these addresses, in this order. */
async function userAt(...addresses: string[]) {
  const user = await t.user();
  const c = await t.signedIn(user);
  for (const address of addresses) expect((await c.get('/api/oauth/me', at(address))).status).toBe(200);
  return { user, c };
}
const addressesOf = async (userId: number) =>
  (await t.db.selectFrom('user_addresses').select('seen_at').where('user_id', '=', userId).execute()).length;

describe('a ban remembers the addresses its sessions used, and holds guest comments from them', () => {
  it("a banned user's guest comment from an address a session of theirs used is held, for 30 days", async () => {
    const { user } = await userAt('203.0.113.10', '203.0.113.11');
    expect((await admin.put(`/api/users?id=${user.id}`, { banned: true })).status).toBe(200);
    for (const address of ['203.0.113.10', '203.0.113.11']) {
      const res = await comment(guest(address), 'back as a guest');
      expect(res.status, address).toBe(201);
      expect(res.body.pending, address).toBe(true);
      // Held: in no public answer.
      const list = await t.client().get(`/api/comments?streamer_id=${streamerId}`);
      expect(JSON.stringify(list.body)).not.toContain(`"id":${res.body.id},`);
    }
    // Another address is not held.
    const elsewhere = await comment(guest('203.0.113.12'), 'an unrelated guest');
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.pending).toBeUndefined();
    t.clock.offset += 31 * DAY;
    try {
      const later = await comment(guest('203.0.113.11'), 'a month later');
      expect(later.status).toBe(201);
      expect(later.body.pending).toBeUndefined();
    } finally {
      t.clock.offset -= 31 * DAY;
    }
  });

  it('recording is one write when the address changes or a day later, not one per request; 20 kept per user', async () => {
    const { user, c } = await userAt('203.0.113.20');
    const recorded = async () =>
      t.db
        .selectFrom('user_addresses')
        .select(['guest_tag', 'seen_at'])
        .where('user_id', '=', user.id)
        .execute();
    const first = await recorded();
    expect(first).toHaveLength(1);
    t.clock.offset += 60_000;
    await c.get('/api/oauth/me', at('203.0.113.20'));
    expect(await recorded()).toEqual(first);
    t.clock.offset += DAY;
    await c.get('/api/oauth/me', at('203.0.113.20'));
    expect((await recorded())[0]?.seen_at).toBe(t.clock.now().toISOString());
    for (let i = 0; i < 25; i++) {
      t.clock.offset += 1000;
      await c.get('/api/oauth/me', at(`198.18.0.${i}`));
    }
    expect(await addressesOf(user.id)).toBe(20);
  });
});

describe("a time-out applies to the user's addresses while it lasts", () => {
  it("a guest comment or suggestion from a timed-out user's address is refused until it ends; other addresses post", async () => {
    const { user } = await userAt('203.0.113.30');
    const admin = await t.admin();
    expect((await admin.put(`/api/users?id=${user.id}`, { timeout_hours: 2 })).status).toBe(200);
    const before = await t.db.selectFrom('comments').select('id').execute();
    const refused = { error: 'Účet je dočasně omezen', code: 'timed_out' };
    const c = guest('203.0.113.30');
    const res = await comment(c, 'signed out, still here');
    expect(res.status).toBe(403);
    expect(res.body).toEqual(refused);
    const suggested = await suggest(c);
    expect(suggested.status).toBe(403);
    expect(suggested.body).toEqual(refused);
    expect(await t.db.selectFrom('comments').select('id').execute()).toEqual(before);
    expect((await comment(guest('203.0.113.31'), 'another address')).status).toBe(201);
    t.clock.offset += 2 * 3_600_000 + 1;
    try {
      expect((await comment(guest('203.0.113.30'), 'after the time-out')).status).toBe(201);
      expect((await suggest(guest('203.0.113.30'))).status).toBe(201);
    } finally {
      t.clock.offset -= 2 * 3_600_000 + 1;
    }
  });
});
