import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { timeOutRuns } from '../src/shared/time-out.ts';
import { timeOutRunsSql } from '../src/users/time-out.ts';
import { startApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';

/**
 * Issue 45 item 5: a banned or timed-out user who signs out and posts as a guest. A ban remembers
 * the addresses the user's sessions used (not only those of sign-ins), for the accounts first
 * signed in from them (DECISIONS.md "No way back for the banned", test/moderators-tools.test.ts);
 * the banned user's own browser stays banned. A time-out follows the browser the user signed out
 * of while it lasts. Guests who merely share an address with them are not touched
 * (docs/decisions.md). Recording an address is no write per request: only when a session's
 * address changes (or a day later), at most 20 per user.
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
const comment = (c: Client, body: string, address?: string) =>
  c.post('/api/comments', { streamer_id: streamerId, body }, address === undefined ? undefined : at(address));
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

describe('a ban remembers the addresses its sessions used; the guests beside them post as guests', () => {
  it("the banned user's own browser is refused; a guest's comment from the same address is published", async () => {
    const { user, c } = await userAt('203.0.113.10', '203.0.113.11');
    expect((await admin.put(`/api/users?id=${user.id}`, { banned: true })).status).toBe(200);
    const before = await t.db.selectFrom('ban_addresses').select('guest_tag').execute();
    expect(before.length).toBeGreaterThanOrEqual(2);
    const own = await comment(c, 'back as a guest', '203.0.113.10');
    expect([own.status, own.body]).toEqual([403, { error: 'Účet je zablokován', code: 'banned' }]);
    for (const address of ['203.0.113.10', '203.0.113.11']) {
      const res = await comment(guest(address), 'a guest sharing the address');
      expect(res.status, address).toBe(201);
      expect(res.body.pending, address).toBeUndefined();
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

describe('a time-out follows the browser the user signed out of, while it lasts', () => {
  it("a guest comment or suggestion from a timed-out user's signed-out browser is refused until it ends; others post", async () => {
    const { user, c } = await userAt('203.0.113.30');
    // The clock has moved past the first administrator's 12 hours.
    const admin = await t.admin();
    expect((await admin.put(`/api/users?id=${user.id}`, { timeout_hours: 2 })).status).toBe(200);
    expect((await c.get('/api/oauth/logout')).status).toBe(302);
    expect((await c.get('/api/oauth/me')).body.user).toBeNull();
    const before = await t.db.selectFrom('comments').select('id').execute();
    const refused = { error: 'Účet je dočasně omezen', code: 'timed_out' };
    const res = await comment(c, 'signed out, still here');
    expect([res.status, res.body]).toEqual([403, refused]);
    const suggested = await suggest(c);
    expect([suggested.status, suggested.body]).toEqual([403, refused]);
    expect(await t.db.selectFrom('comments').select('id').execute()).toEqual(before);
    // Another browser at the same address is another guest.
    expect((await comment(guest('203.0.113.30'), 'same address, another browser')).status).toBe(201);
    expect((await suggest(guest('203.0.113.30'))).status).toBe(201);
    // A millisecond before its end it still runs; at that instant the browser posts again, as
    // the guard lets the user write again (the rule's SQL form, users/time-out.ts).
    const offset = t.clock.offset;
    t.clock.offset += 2 * 3_600_000 - 1;
    try {
      expect((await comment(c, 'a moment before the end')).body).toEqual(refused);
      t.clock.offset += 1;
      expect((await comment(c, 'after the time-out')).status).toBe(201);
      expect((await suggest(c)).status).toBe(201);
    } finally {
      t.clock.offset = offset;
    }
  });

  it('a time-out lifted early frees the browser at once; one that signs out without a time-out is a guest', async () => {
    const { user, c } = await userAt('203.0.113.40');
    const admin = await t.admin();
    expect((await admin.put(`/api/users?id=${user.id}`, { timeout_hours: 5 })).status).toBe(200);
    await c.get('/api/oauth/logout');
    expect((await comment(c, 'while timed out')).status).toBe(403);
    expect((await admin.put(`/api/users?id=${user.id}`, { timeout_hours: 0 })).status).toBe(200);
    expect((await comment(c, 'lifted')).status).toBe(201);
    const other = await userAt('203.0.113.41');
    await other.c.get('/api/oauth/logout');
    expect((await comment(other.c, 'signed out, never timed out')).status).toBe(201);
  });
});

describe("a time-out's two forms are one rule: the guard's (shared/time-out.ts) and the database's", () => {
  it('the SQL form says what the shared rule does a millisecond before, at and after the end, and without one', async () => {
    const until = '2026-12-07T10:00:00.000Z';
    const end = Date.parse(until);
    const asked: [string | null, number][] = [end - 1, end, end + 1].flatMap((at) => [
      [until, at] as [string, number],
      [null, at] as [null, number],
    ]);
    const answers = await Promise.all(
      asked.map(async ([u, at]) => {
        const condition = timeOutRunsSql(
          sql`cast(${u} as text)`,
          sql`cast(${new Date(at).toISOString()} as text)`,
        );
        const { rows } = await sql<{
          runs: number;
        }>`select case when ${condition} then 1 else 0 end as runs`.execute(t.db);
        return [u, at - end, Number(rows[0]?.runs) === 1];
      }),
    );
    expect(answers).toEqual(asked.map(([u, at]) => [u, at - end, timeOutRuns(u, at)]));
    // The shared rule itself: running only before the end.
    expect(answers.filter(([, , runs]) => runs)).toEqual([[until, -1, true]]);
  });
});
