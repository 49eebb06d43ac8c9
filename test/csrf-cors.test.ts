import { request } from 'node:http';
import { describe, expect, it } from 'vitest';

import { countRows, useApp } from './helpers/app.ts';
import { Client } from './helpers/client.ts';

const t = await useApp({ CORS_ORIGINS: 'https://allowed.example' });
const own = t.config.origin;

/** A POST with exactly these headers (Host included); resolves with the status. */
function rawPost(
  base: string,
  path: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<number> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(base + path, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(payload),
      },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

describe('CSRF (unsafe methods from foreign origins)', () => {
  it.each([
    ['http://evil.example'],
    ['https://allowed.example.evil'],
    [`${own}.evil.example`],
    ['null'],
    ['http://localhost'],
  ])('Origin %s gets 403 Forbidden and changes nothing', async (origin) => {
    const before = await countRows(t.db, 'streamers');
    const res = await t.client({ origin }).post('/api/streamers', { name: `csrf ${origin}` });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Forbidden', code: 'forbidden' });
    expect(await countRows(t.db, 'streamers')).toBe(before);
  });

  it('a forged Host is not the own origin: Host evil.example with Origin http://evil.example gets 403 (DNS rebinding)', async () => {
    const before = await countRows(t.db, 'streamers');
    const port = new URL(t.url).port;
    for (const headers of <Record<string, string>[]>[
      { host: 'evil.example', origin: 'http://evil.example' },
      { host: 'evil.example', origin: 'http://evil.example', 'sec-fetch-site': 'same-origin' },
      { host: `evil.example:${port}`, origin: `http://evil.example:${port}` },
    ]) {
      // fetch sends the Host of its URL whatever it is given: node:http sends the one given.
      const status = await rawPost(t.url, '/api/streamers', headers, {
        name: `rebound ${headers.host ?? ''}`,
      });
      expect(status, JSON.stringify(headers)).toBe(403);
    }
    expect(await countRows(t.db, 'streamers')).toBe(before);
  });

  it('Sec-Fetch-Site: cross-site gets 403 even without Origin', async () => {
    const res = await t
      .client({ 'sec-fetch-site': 'cross-site' })
      .post('/api/streamers', { name: 'cross site' });
    expect(res.status).toBe(403);
  });

  it('a cross-site PUT and DELETE are refused too, before authentication', async () => {
    const admin = await t.admin();
    const id = await t.streamer();
    const evil = new Client(t.url, { origin: 'http://evil.example' });
    evil.cookies = admin.cookies;
    expect((await evil.del(`/api/streamers?id=${id}`)).status).toBe(403);
    expect((await evil.put(`/api/streamers?id=${id}`, { r: { s: 5 } })).status).toBe(403);
    expect((await admin.get('/api/streamers?all=1')).body.some((s: any) => s.id === id && !s.evaluated)).toBe(
      true,
    );
  });

  it('the own origin, an allowed origin and same-origin fetch metadata pass', async () => {
    for (const headers of [
      { origin: own } as Record<string, string>,
      { origin: 'https://allowed.example', 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-origin' },
      {},
    ]) {
      const res = await t.client(headers).post('/api/streamers', { name: `ok ${JSON.stringify(headers)}` });
      expect(res.status).toBe(201);
    }
  });

  it('GET is never refused for its origin and never changes state', async () => {
    const before = await countRows(t.db, 'streamers');
    const res = await t.client({ origin: 'http://evil.example' }).get('/api/streamers?admin=1&name=viaGET');
    expect(res.status).toBe(200);
    expect(await countRows(t.db, 'streamers')).toBe(before);
  });
});

describe('CORS', () => {
  it('an allowed origin gets its exact origin back with credentials and Vary: Origin', async () => {
    const res = await t.client({ origin: 'https://allowed.example' }).get('/api/streamers');
    expect(res.headers.get('access-control-allow-origin')).toBe('https://allowed.example');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('vary')).toMatch(/Origin/);
  });

  it.each([['null'], ['https://allowed.example.evil'], ['https://evil.example'], ['http://allowed.example']])(
    'origin %s gets no Access-Control-Allow-Origin',
    async (origin) => {
      const res = await t.client({ origin }).get('/api/streamers');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    },
  );

  it('a preflight from an allowed origin answers 204 with the allowed methods; never *', async () => {
    const res = await t
      .client({
        origin: 'https://allowed.example',
        'access-control-request-method': 'PUT',
      })
      .request('OPTIONS', '/api/streamers');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(res.headers.get('access-control-allow-origin')).toBe('https://allowed.example');
    const foreign = await t
      .client({ origin: 'https://evil.example', 'access-control-request-method': 'PUT' })
      .request('OPTIONS', '/api/streamers');
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });
});
