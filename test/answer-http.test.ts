import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { webRoot } from '../src/pages/assets.ts';
import { useApp } from './helpers/app.ts';
import { rawGet } from './helpers/raw-get.ts';

/**
 * Every answer kept in memory is sent by one sender (src/cache/sender.ts): the same
 * Accept-Encoding and If-None-Match rules for the public list (before routing and through the
 * route), a comment list, a page, a built file and the API document.
 */
const t = await useApp();
let sid = 0;
const script = readdirSync(join(webRoot(), 'assets')).find((f) => f.endsWith('.js'));

beforeAll(async () => {
  for (let i = 0; i < 30; i++) await t.streamer(`Sender Streamer ${i}`, { s: (i % 10) + 1 });
  sid = await t.streamer('Sender Comments', { s: 9 });
  for (let i = 0; i < 20; i++)
    await t.client().post('/api/comments', { streamer_id: sid, body: `comment number ${i} with some words` });
});

const answers: [string, () => string, Record<string, string>][] = [
  ['the public list before routing', () => '/api/streamers', {}],
  ['the public list through the route', () => '/api/streamers', { cookie: 'sid=none' }],
  ['a comment list', () => `/api/comments?streamer_id=${sid}`, {}],
  ['the ranking page', () => '/', { cookie: 'sid=none' }],
  ['a built file', () => `/assets/${script}`, {}],
  ['the API document', () => '/api/openapi.json', {}],
];

describe.each(answers)('%s', (_name, path, extra) => {
  const get = (headers: Record<string, string> = {}) => rawGet(t.url + path(), { ...extra, ...headers });
  const encoding = async (accept: string) =>
    (await get({ 'accept-encoding': accept })).headers['content-encoding'];

  it('Accept-Encoding: a coding with q=0 is refused, the highest q wins, `*` and `x-gzip` count', async () => {
    expect(await encoding('gzip, deflate, br')).toBe('br');
    expect(await encoding('br;q=0, gzip')).toBe('gzip');
    expect(await encoding('br;q=0, gzip;q=0')).toBeUndefined();
    expect(await encoding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(await encoding('BR;Q=0.1, gzip;q=0.05')).toBe('br');
    expect(await encoding('*')).toBe('br');
    expect(await encoding('*;q=0.5, br;q=0')).toBe('gzip');
    expect(await encoding('x-gzip')).toBe('gzip');
    expect(await encoding('br;q=nonsense, gzip')).toBe('gzip');
  });

  it('Accept-Encoding: `identity` is the bytes as they are, and nothing acceptable still gets them', async () => {
    expect(await encoding('identity')).toBeUndefined();
    expect(await encoding('identity, br;q=0.5')).toBeUndefined();
    expect(await encoding('identity;q=0, gzip;q=0.5')).toBe('gzip');
    const none = await get({ 'accept-encoding': 'identity;q=0, *;q=0' });
    expect(none.status).toBe(200);
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.headers.vary).toMatch(/Accept-Encoding/);
  });

  it('If-None-Match: a list, weak tags and `*` match; another tag or an unquoted one does not', async () => {
    const first = await get();
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    for (const header of [etag, `W/${etag}`, `"other", W/${etag}`, `W/"x",${etag}`, '*']) {
      const again = await get({ 'if-none-match': header });
      expect(again.status, header).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers['content-type']).toBeUndefined();
      expect(again.headers.etag).toBe(etag);
    }
    for (const header of ['"other"', etag.slice(1, -1), `"${etag}"`, 'W/"other"'])
      expect((await get({ 'if-none-match': header })).status, header).toBe(200);
  });
});
