import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTransaction } from '../src/db/transaction.ts';
import { startApp, useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';
import { dbKind, reopen } from './helpers/database.ts';
import { rawGet } from './helpers/raw-get.ts';

const t = await useApp();
let admin: Client;
let sid: number;
beforeAll(async () => {
  admin = await t.admin();
  for (let i = 0; i < 30; i++) await t.streamer(`Cached Streamer ${i}`, { s: (i % 10) + 1 });
  sid = await t.streamer('Cached Comments', { s: 9 });
  for (let i = 0; i < 20; i++)
    await t.client().post('/api/comments', { streamer_id: sid, body: `comment number ${i}` });
});

const raw = (path: string, headers: Record<string, string> = {}) => rawGet(t.url + path, headers);

describe.each([['/api/streamers'], ['/api/comments?streamer_id=SID']])('%s', (template) => {
  const path = () => template.replace('SID', String(sid));

  it('answers with an ETag and Cache-Control: private, no-cache; a matching If-None-Match gets 304 with no body', async () => {
    const first = await raw(path());
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await raw(path(), { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['x-content-type-options']).toBe('nosniff');
    expect((await raw(path(), { 'if-none-match': `"other", W/${etag}` })).status).toBe(304);
    expect((await raw(path(), { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('is compressed with br, else gzip, when accepted, and plain otherwise; all decode to the same JSON', async () => {
    const plain = await raw(path());
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    const br = await raw(path(), { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gz = await raw(path(), { 'accept-encoding': 'gzip, br;q=0' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(String(br.headers.vary)).toMatch(/Accept-Encoding/);
    expect(br.headers.etag).toBe(plain.headers.etag);
  });
});

describe('one streamer by id: the item, its rating history, its streams and its schedule', () => {
  it.each([[''], ['&history=1'], ['&streams=1'], ['&schedule=1']])(
    '?id=N%s answers with an ETag and private, no-cache, and 304 to a matching If-None-Match',
    async (variant) => {
      const path = `/api/streamers?id=${sid}${variant}`;
      const first = await raw(path);
      expect(first.status).toBe(200);
      expect(first.headers['cache-control']).toBe('private, no-cache');
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await raw(path, { 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      JSON.parse(first.body.toString());
    },
  );

  it('a new rating changes the history and its ETag', async () => {
    const path = `/api/streamers?id=${sid}&history=1`;
    const before = await raw(path);
    expect((await admin.put(`/api/streamers?id=${sid}`, { r: { s: 8 } })).status).toBe(200);
    const after = await raw(path, { 'if-none-match': String(before.headers.etag) });
    expect(after.status).toBe(200);
    expect((JSON.parse(after.body.toString()) as unknown[]).length).toBe(
      (JSON.parse(before.body.toString()) as unknown[]).length + 1,
    );
  });
});

describe('invalidation', () => {
  it('a write changes the answer and its ETag at once (read your own writes)', async () => {
    const before = await raw('/api/streamers');
    const id = await t.streamer('Fresh Entry', { s: 10, g: 10, a: 10 });
    const after = await raw('/api/streamers', { 'if-none-match': String(before.headers.etag) });
    expect(after.status).toBe(200);
    expect(JSON.parse(after.body.toString())[0].id).toBe(id);
    const comments = await raw(`/api/comments?streamer_id=${sid}`);
    await t.client().post('/api/comments', { streamer_id: sid, body: 'a brand new comment' });
    const next = await raw(`/api/comments?streamer_id=${sid}`, {
      'if-none-match': String(comments.headers.etag),
    });
    expect(next.status).toBe(200);
    expect(JSON.parse(next.body.toString()).at(-1).body).toBe('a brand new comment');
    const item = (await admin.get(`/api/streamers?id=${sid}`)).body;
    expect(item.comment_count).toBe(21);
  });

  it('the views that depend on the caller stay theirs: notes only in the full view', async () => {
    await admin.put(`/api/streamers?id=${sid}`, { r: { s: 9 }, notes: 'secret note' });
    expect(JSON.stringify((await t.client().get('/api/streamers')).body)).not.toContain('secret note');
    expect(JSON.stringify((await admin.get('/api/streamers?all=1')).body)).toContain('secret note');
    expect(JSON.stringify((await admin.get('/api/streamers')).body)).not.toContain('secret note');
  });

  it('another instance on the same database sees a change within a second or so', async () => {
    const second = reopen(t.database);
    const other = await startApp({}, { database: second });
    afterAll(async () => {
      await other.close();
      await second.cleanup();
    });
    const otherList = async () => (await other.client().get('/api/streamers')).body as any[];
    const seenBefore = await otherList();
    const id = await t.streamer('Seen Elsewhere', { s: 10, g: 10, a: 10, v: 10 });
    expect(seenBefore.some((s) => s.id === id)).toBe(false);
    // Through NOTIFY or the data_version poll (twice a second); waited for generously, so
    // that a busy machine's pauses do not fail the test.
    await expect
      .poll(async () => (await otherList()).some((s) => s.id === id), { timeout: 30_000, interval: 50 })
      .toBe(true);
  });

  it.runIf(dbKind === 'postgres')(
    "an instance's own NOTIFY does not move its version again: its answers stay kept after its own write",
    async () => {
      const second = reopen(t.database);
      const other = await startApp({}, { database: second });
      try {
        const own = await t.streamer('Own Write', { s: 5 });
        const mine = t.app.database.changes;
        // A write of this instance, its version read in the same turn as the commit's answer
        // (before its own NOTIFY can have come back).
        await writeTransaction(t.app.database, (trx) => sql`select 1`.execute(trx), 'content');
        const after = mine.current;
        // The other instance's write: its NOTIFY reaches this instance after this instance's own
        // (one LISTEN connection hears them in commit order), so once it is heard, the own ones
        // have been heard too, and only the other's moved the version.
        await other.client().post('/api/comments', { streamer_id: own, body: 'from the other instance' });
        const from = other.app.database.changes.origin;
        await expect.poll(() => mine.heardFrom, { timeout: 30_000, interval: 20 }).toBe(from);
        expect(mine.current).toBe(after + 1);
      } finally {
        await other.close();
        await second.cleanup();
      }
    },
  );
});
