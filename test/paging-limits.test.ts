import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';

/** Issue 30 item 7 (DECISIONS.md "Names and limits"): every `limit` is bounded; a bad one is 400. */
const t = await useApp({ TRUST_PROXY: '127.0.0.1' });
let admin: Client;
let sid: number;
beforeAll(async () => {
  admin = await t.admin();
  sid = (await admin.post('/api/streamers?admin=1', { name: 'Paged Streamer' })).body.id;
  for (let i = 0; i < 3; i++)
    await t.client().post('/api/comments', { streamer_id: sid, body: `comment ${i}` });
});

const PAGED = (s: () => number) => [
  `/api/comments?streamer_id=${s()}&`,
  '/api/audit?',
  '/api/moderation/comments?',
  '/api/users?',
  '/api/moderation/blocks?',
  '/api/reviews?queue=1&',
];

describe('every limit is bounded', () => {
  it.each(['0', '101', '100000', '-1', 'abc', '1.5', '', '2e1'])(
    'limit=%s answers 400 naming the range',
    async (bad) => {
      for (const path of PAGED(() => sid)) {
        const res = await admin.get(`${path}limit=${encodeURIComponent(bad)}`);
        expect(res.status, path).toBe(400);
        expect(res.body, path).toEqual({
          error: 'limit must be an integer from 1 to 100',
          code: 'invalid_limit',
        });
      }
    },
  );

  it('a limit from 1 to 100 pages', async () => {
    const one = await admin.get(`/api/comments?streamer_id=${sid}&limit=1`);
    expect(one.status).toBe(200);
    expect(one.body).toHaveLength(1);
    // DECISIONS.md "Requests": a numeric string counts as its number, leading zeros too.
    expect((await admin.get(`/api/comments?streamer_id=${sid}&limit=01`)).body).toEqual(one.body);
    expect((await admin.get('/api/audit?limit=001')).body).toHaveLength(1);
    const top = await admin.get(`/api/comments?streamer_id=${sid}&order=top&limit=1&offset=01`);
    expect([top.status, top.body.length]).toEqual([200, 1]);
    expect((await admin.get(`/api/comments?streamer_id=${sid}&limit=100`)).body).toHaveLength(3);
    expect((await admin.get('/api/audit?limit=1')).body).toHaveLength(1);
    expect((await admin.get('/api/audit?limit=100')).status).toBe(200);
    expect((await admin.get('/api/moderation/comments?filter=recent&limit=2')).body).toHaveLength(2);
  });

  it('users, address blocks and the review queue answer pages', async () => {
    const users = await Promise.all([1, 2, 3].map(() => t.user()));
    // Most recently seen first: a user who signs in now comes first.
    await t.signedIn(users[0]!);
    const two = (await admin.get('/api/users?limit=2')).body as { id: number }[];
    expect(two).toHaveLength(2);
    expect((await admin.get('/api/users')).body.length).toBeLessThanOrEqual(100);
    for (let i = 0; i < 3; i++) {
      const c = t.client({ 'x-forwarded-for': `203.0.113.${90 + i}` });
      const id = (await c.post('/api/comments', { streamer_id: sid, body: `to block ${i}` })).body.id;
      expect((await admin.post('/api/moderation/blocks', { comment_id: id })).status).toBe(201);
    }
    const first = (await admin.get('/api/moderation/blocks?limit=2')).body as { id: number }[];
    expect(first).toHaveLength(2);
    expect(first[0]!.id).toBeGreaterThan(first[1]!.id);
    const next = (await admin.get(`/api/moderation/blocks?limit=2&before=${first[1]!.id}`)).body as {
      id: number;
    }[];
    expect(next.every((b) => b.id < first[1]!.id)).toBe(true);
    expect(next.length).toBeGreaterThanOrEqual(1);
    expect((await admin.get('/api/reviews?queue=1&limit=1')).body).toHaveLength(1);
  });

  it('the audit log without a limit answers a page, never the whole table', async () => {
    for (let i = 0; i < 60; i++) await admin.post('/api/streamers?admin=1', { name: `Audit Filler ${i}` });
    expect((await admin.get('/api/audit')).body).toHaveLength(50);
    expect((await admin.get('/api/audit?limit=100000')).status).toBe(400);
  });
});
