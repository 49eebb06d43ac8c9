import { describe, expect, it } from 'vitest';
import { OWN_TTL_MS } from '../src/comments/own-cookie.ts';
import { OPERATOR_CONTACT_MAX, OPERATOR_NAME_MAX } from '../src/shared/rules.ts';
import { useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';

/**
 * Issue 30 item 22 and issue 29: a guest deletes the comments their browser posted, a held
 * comment is shown to its own author (and nobody else) until approved, and the administrator
 * names the site's operator for the privacy page.
 */
const t = await useApp({ TRUST_PROXY: '127.0.0.1' });
t.clock.freeze();
const admin = await t.admin();
const sid = await t.streamer('Own Stage', { s: 5, g: 5, a: 5, v: 5, n: 5, ns: 5, o: 5 });
let n = 0;
const guest = () => t.client({ 'x-forwarded-for': `198.51.100.${++n}` });
expect((await admin.put('/api/settings', { guest_challenge: 'off' })).status).toBe(200);

interface Mine {
  liked: number[];
  own: number[];
  held: { id: number; body: string; pending?: boolean }[];
}
const post = async (c: Client, body: string) => {
  const res = await c.post('/api/comments', { streamer_id: sid, body, author: 'Host' });
  expect(res.status).toBe(201);
  return res.body as { id: number; pending?: boolean };
};
const mine = async (c: Client) => {
  const res = await c.get(`/api/comments?streamer_id=${sid}&mine=1`);
  expect(res.status).toBe(200);
  return res.body as Mine;
};
const publicIds = async (c: Client = t.client()) =>
  ((await c.get(`/api/comments?streamer_id=${sid}`)).body as { id: number }[]).map((x) => x.id);
const commentCount = async () =>
  ((await t.client().get('/api/streamers')).body as { id: number; comment_count: number }[]).find(
    (s) => s.id === sid,
  )?.comment_count;
const stored = async (id: number) =>
  (await t.db.selectFrom('comments').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

describe('a guest deletes their own comments', () => {
  it('the browser that posted a guest comment sees it as its own and deletes it: gone from the list and the count', async () => {
    const g = guest();
    const { id } = await post(g, 'Mine to take back');
    // Remembered in the browser's own signed cookie: the post writes no session (one write, one fsync).
    expect(g.cookies.get('own')).toMatch(/\.\d+\./);
    expect(g.sid).toBeUndefined();
    expect((await mine(g)).own).toEqual([id]);
    const before = await commentCount();
    const res = await g.del(`/api/comments?id=${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(await stored(id)).toBe(false);
    expect(await publicIds()).not.toContain(id);
    expect(await commentCount()).toBe(before! - 1);
    expect((await mine(g)).own).toEqual([]);
  });

  it("nobody else deletes a guest's comment: another guest with comments of their own, a visitor, a signed-in user get 401, nothing changed", async () => {
    const author = guest();
    const { id } = await post(author, 'Not yours');
    const other = guest();
    const { id: otherId } = await post(other, 'Another guest');
    for (const c of [other, guest(), t.client(), await t.signedIn(await t.user())]) {
      const res = await c.del(`/api/comments?id=${id}`);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('Unauthorized');
    }
    expect(await stored(id)).toBe(true);
    expect(await publicIds()).toContain(id);
    expect((await mine(other)).own).toEqual([otherId]);
    // A visitor whose browser posted nothing is not signed in, as before.
    const fresh = await t.client().get(`/api/comments?streamer_id=${sid}&mine=1`);
    expect(fresh.status).toBe(401);
    expect(fresh.body.error).toBe('Not logged in');
  });

  it("a forged cookie owns nothing: another guest's comment id with a made-up or borrowed signature gets 401, nothing deleted", async () => {
    const author = guest();
    const { id } = await post(author, 'Signed for me only');
    const forger = guest();
    const { id: forgerId } = await post(forger, 'My own one');
    const [until, , mac] = forger.cookies.get('own')!.split('.');
    const attempts = [
      `${until}.${forgerId}-${id}.${mac}`, // the forger's own signature over a longer list
      `${until}.${id}.${'A'.repeat(43)}`,
      `${Number(until) + 1}.${id}.${author.cookies.get('own')!.split('.')[2]}`, // the author's signature, another time
    ];
    for (const value of attempts) {
      forger.cookies.set('own', value);
      const res = await forger.del(`/api/comments?id=${id}`);
      expect(res.status, value).toBe(401);
      expect(res.body.error).toBe('Unauthorized');
    }
    expect(await stored(id)).toBe(true);
    // The author's cookie, copied as it is, is the author's: it still deletes.
    expect((await author.del(`/api/comments?id=${id}`)).status).toBe(200);
  });

  it('a signed-in author has no guest comments to delete (they hide their own); the administrator deletes any', async () => {
    const user = await t.signedIn(await t.user());
    const { id } = await post(user, 'Signed in');
    expect((await mine(user)).own).toEqual([]);
    expect((await user.del(`/api/comments?id=${id}`)).status).toBe(401);
    expect((await admin.del(`/api/comments?id=${id}`)).status).toBe(200);
    expect(await stored(id)).toBe(false);
  });
});

describe("the author's own held comment", () => {
  it("a held guest comment is in its own browser's answer with pending, in no other answer and no count, until approved", async () => {
    expect((await admin.put('/api/settings', { guest_hold: 'all' })).status).toBe(200);
    const g = guest();
    const count = await commentCount();
    const held = await post(g, 'Waiting for a moderator');
    expect(held.pending).toBe(true);
    expect((await mine(g)).held).toEqual([expect.objectContaining({ id: held.id, pending: true })]);
    expect((await mine(g)).own).toContain(held.id);
    // Nobody else: not another guest, not the shared list (its author's request fills the answer
    // cache first, which then serves the visitor), not the count.
    const other = guest();
    const theirs = await post(other, 'Another held one');
    expect((await mine(other)).held.map((c) => c.id)).toEqual([theirs.id]);
    expect((await mine(g)).held.map((c) => c.id)).toEqual([held.id]);
    expect(await publicIds(g)).not.toContain(held.id);
    expect(await publicIds()).not.toContain(held.id);
    const page = await g.get(`/api/comments?streamer_id=${sid}&limit=5`);
    expect((page.body as { id: number }[]).map((c) => c.id)).not.toContain(held.id);
    const own = await g.get(`/api/comments?streamer_id=${sid}&mine=1`);
    expect(own.headers.get('cache-control')).toBe('no-store');
    expect(await commentCount()).toBe(count);
    // Approved: public, counted, no longer waiting.
    const approve = await admin.put('/api/moderation/comments', { ids: [held.id], action: 'approve' });
    expect(approve.status).toBe(200);
    expect(await publicIds()).toContain(held.id);
    expect(await commentCount()).toBe(count! + 1);
    expect((await mine(g)).held).toEqual([]);
    expect((await admin.put('/api/settings', { guest_hold: 'none' })).status).toBe(200);
  });

  it('the guest deletes their held comment: it leaves the queue', async () => {
    expect((await admin.put('/api/settings', { guest_hold: 'all' })).status).toBe(200);
    const g = guest();
    const held = await post(g, 'Held, then taken back');
    expect((await g.del(`/api/comments?id=${held.id}`)).status).toBe(200);
    const queue = (await admin.get('/api/moderation/comments?filter=pending')).body as { id: number }[];
    expect(queue.map((c) => c.id)).not.toContain(held.id);
    expect((await admin.put('/api/settings', { guest_hold: 'none' })).status).toBe(200);
  });

  it("a held account's comment is shown to that user (by user id, in any browser) and to nobody else", async () => {
    const profile = await t.user();
    await t.db.updateTable('users').set({ held: 1 }).where('id', '=', profile.id).execute();
    const held = await post(await t.signedIn(profile), 'Held account');
    expect(held.pending).toBe(true);
    expect((await mine(await t.signedIn(profile))).held.map((c) => c.id)).toEqual([held.id]);
    expect((await mine(await t.signedIn(await t.user()))).held).toEqual([]);
    expect(await publicIds()).not.toContain(held.id);
  });
});

describe('the operator on the privacy page', () => {
  it('unset: null for everyone, in an answer of their own (GET /api/settings keeps the contract)', async () => {
    expect((await t.client().get('/api/settings/operator')).body).toEqual({
      operator_name: null,
      operator_contact: null,
      mail: false,
    });
    expect((await t.client().get('/api/settings')).body).not.toHaveProperty('operator_name');
    expect((await admin.get('/api/settings')).body).not.toHaveProperty('operator_name');
  });

  it('the administrator names the operator and a contact: shown to everyone, audited; empty unsets', async () => {
    const res = await admin.put('/api/settings', {
      operator_name: '  Spolek Streamy, z. s. ',
      operator_contact: 'privacy@example.org',
    });
    expect(res.status).toBe(200);
    expect((await t.client().get('/api/settings/operator')).body).toMatchObject({
      operator_name: 'Spolek Streamy, z. s.',
      operator_contact: 'privacy@example.org',
    });
    const audit = (await admin.get('/api/audit?limit=1')).body as { action: string; params: unknown }[];
    expect(audit[0]).toMatchObject({
      action: 'settings.operator',
      params: { name: 'Spolek Streamy, z. s.', contact: 'privacy@example.org' },
    });
    expect((await admin.put('/api/settings', { operator_contact: '' })).status).toBe(200);
    expect((await t.client().get('/api/settings/operator')).body).toMatchObject({
      operator_name: 'Spolek Streamy, z. s.',
      operator_contact: null,
    });
  });

  it('anyone but the administrator: 401, nothing changed', async () => {
    for (const c of [t.client(), await t.signedIn(await t.user(), {}), guest()]) {
      const res = await c.put('/api/settings', { operator_name: 'Mallory' });
      expect(res.status).toBe(401);
    }
    expect((await t.client().get('/api/settings/operator')).body.operator_name).toBe('Spolek Streamy, z. s.');
  });

  it('too long, more than one line, or not text: 400 naming the field, nothing changed', async () => {
    const bad: [string, unknown][] = [
      ['operator_name', 'x'.repeat(OPERATOR_NAME_MAX + 1)],
      ['operator_contact', `https://example.org/${'x'.repeat(OPERATOR_CONTACT_MAX)}`],
      ['operator_name', 'Two\nlines'],
      ['operator_contact', 42],
    ];
    for (const [field, value] of bad) {
      const res = await admin.put('/api/settings', { operator_name: 'Changed?', [field]: value });
      expect(res.status, field).toBe(400);
      expect(res.body.error).toBe(`Invalid ${field}`);
    }
    expect((await admin.put('/api/settings', { operator_name: 'n'.repeat(OPERATOR_NAME_MAX) })).status).toBe(
      200,
    );
    expect((await t.client().get('/api/settings/operator')).body.operator_name).toBe(
      'n'.repeat(OPERATOR_NAME_MAX),
    );
  });
});

// Last: moving the clock past the idle time ends the administrator's session too.
describe("a guest's own comments, later", () => {
  it("the cookie lapses after the idle time of a session since its last change: its comments are nobody's", async () => {
    const g = guest();
    const { id } = await post(g, 'Left behind');
    t.clock.advance(OWN_TTL_MS + 1000);
    expect((await g.del(`/api/comments?id=${id}`)).status).toBe(401);
    expect((await g.get(`/api/comments?streamer_id=${sid}&mine=1`)).status).toBe(401);
    expect(await stored(id)).toBe(true);
  });
});
