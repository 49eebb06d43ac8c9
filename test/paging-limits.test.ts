import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';

/** Issue 30 item 7 (DECISIONS.md "Names and limits"): every `limit` is bounded; a bad one is 400. */
const t = await useApp();
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
    expect((await admin.get(`/api/comments?streamer_id=${sid}&limit=100`)).body).toHaveLength(3);
    expect((await admin.get('/api/audit?limit=1')).body).toHaveLength(1);
    expect((await admin.get('/api/audit?limit=100')).status).toBe(200);
    expect((await admin.get('/api/moderation/comments?filter=recent&limit=2')).body).toHaveLength(2);
  });

  it('the audit log without a limit answers a page, never the whole table', async () => {
    for (let i = 0; i < 60; i++) await admin.post('/api/streamers?admin=1', { name: `Audit Filler ${i}` });
    expect((await admin.get('/api/audit')).body).toHaveLength(50);
    expect((await admin.get('/api/audit?limit=100000')).status).toBe(400);
  });
});
