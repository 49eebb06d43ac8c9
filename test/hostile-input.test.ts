import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { countRows, useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';

const t = await useApp({ PROVIDER_B_CLIENT_ID: 'kick-client', PROVIDER_B_CLIENT_SECRET: 'kick-secret' });
let admin: Client;
beforeAll(async () => {
  admin = await t.admin();
});

const HEADERS = (h: (name: string) => string | null | undefined) => {
  expect(h('x-content-type-options')).toBe('nosniff');
  expect(h('referrer-policy')).toBe('no-referrer');
  expect(h('content-security-policy')).toContain("frame-ancestors 'none'");
};

/**
 * Sends raw bytes and reads the whole answer (for what Node's HTTP parser refuses). The socket
 * is not half-closed: Node's server drops a request whose client ends its side before the
 * answer is ready, so every request here asks for `Connection: close` instead.
 */
function rawRequest(bytes: string): Promise<{ status: number; headers: Map<string, string>; body: string }> {
  const { hostname, port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let data = '';
    socket.on('data', (c) => (data += c.toString('latin1')));
    socket.on('end', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Map(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.on('error', reject);
    socket.write(bytes);
  });
}

describe('answers that fail before routing keep the error shape and the headers', () => {
  it.each([['/%'], ['/api/streamers%E0%A4%A'], ['/api/%C0%AF']])(
    'a malformed URL %s is 400 {"error"}',
    async (path) => {
      const res = await rawRequest(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toEqual({ error: 'Bad request', code: 'bad_request' });
      HEADERS((n) => res.headers.get(n));
    },
  );

  it('a malformed request line is 400 {"error"} with the headers', async () => {
    const res = await rawRequest('THIS IS NOT HTTP\r\n\r\n');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ error: 'Bad request', code: 'bad_request' });
    HEADERS((n) => res.headers.get(n));
  });

  it.each([['HTTP/1.0'], ['HTTP/1.1']])(
    'a %s request without a Host header is answered by the service, with the headers',
    async (version) => {
      const res = await rawRequest(`GET /api/settings ${version}\r\nConnection: close\r\n\r\n`);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toEqual({
        auth_enabled: false,
        guest_hold: 'none',
        guest_challenge: 'burst',
        refuse_repeats: false,
      });
      HEADERS((n) => res.headers.get(n));
    },
  );

  it('an oversized header is 431 {"error"} with the headers', async () => {
    const res = await rawRequest(`GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toEqual({
      error: 'Request header fields too large',
      code: 'header_too_large',
    });
    HEADERS((n) => res.headers.get(n));
  });
});

describe('repeated query parameters never change who may call a route', () => {
  it.each([['action=debug&action=debug'], ['action=debug&action=me'], ['action=me&action=debug']])(
    '/api/oauth?%s: the guard and the handler read the same (first) value',
    async (q) => {
      const res = await t.client().get(`/api/oauth?${q}`);
      if (q.startsWith('action=debug'))
        expect([res.status, res.body]).toEqual([401, { error: 'Unauthorized', code: 'unauthorized' }]);
      else
        expect(res.body).toEqual({
          user: null,
          is_admin: false,
          is_mod: false,
          banned: false,
          speaks_for: [],
          timeout_until: null,
          email: null,
          email_pending: false,
        });
    },
  );

  it('a query flag is set by its presence, whatever its value: ?admin=0 and ?admin=false still ask for the administrator', async () => {
    for (const query of ['admin=0', 'admin=false', 'admin=', 'admin', 'admin=0&admin=1', 'admin=1&admin=0']) {
      const denied = await t.client().post(`/api/streamers?${query}`, { name: `Flag ${query}` });
      expect(denied.status, query).toBe(401);
    }
    const res = await admin.post('/api/streamers?admin=0', { name: 'Flag Zero By Admin' });
    expect(res.status).toBe(201);
    expect((await admin.get(`/api/streamers?all=1&id=${res.body.id}`)).body.added_by).toBe('admin');
    // Without the flag it is a visitor's suggestion.
    const suggested = await t.client().post('/api/streamers', { name: 'Flag Absent' });
    expect((await admin.get(`/api/streamers?all=1&id=${suggested.body.id}`)).body.added_by).toBe('viewer');
  });
});

describe('text a database cannot store is cleaned, the same on both databases', () => {
  it('NUL in the provider_b state is an invalid state, not a 500', async () => {
    const c = t.client();
    await c.get('/api/oauth/login/provider_b');
    const res = await c.get('/api/oauth/login/provider_b?code=abc&state=ab%00cd');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/?auth_error=provider_b_invalid_state');
  });

  it('NUL in q of /api/users and in a member login', async () => {
    const u = await t.user({ login: 'nulltester', display_name: 'Null Tester' });
    const found = await admin.get('/api/users?q=null%00tester');
    expect(found.status).toBe(200);
    expect(found.body.map((x: any) => x.id)).toContain(u.id);
    const g = await admin.post('/api/rater_groups', { name: 'Null Team' });
    const added = await admin.post('/api/rater_groups?members=1', {
      group_id: g.body.id,
      login: 'null\u0000tester',
    });
    expect(added.body).toMatchObject({ ok: true, display_name: 'Null Tester' });
  });

  it('NUL and unpaired surrogates in comments and names are cleaned', async () => {
    const sid = await t.streamer();
    const res = await t.client().post('/api/comments', {
      streamer_id: sid,
      body: 'hello\u0000 world \ud800!',
      author: 'an\u0000on',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ body: 'hello world \ufffd!', author: 'anon' });
    const s = await t.client().post('/api/streamers', { name: 'Nul\u0000 Name' });
    expect(s.status).toBe(201);
    expect((await admin.get(`/api/streamers?all=1&id=${s.body.id}`)).body.name).toBe('Nul Name');
  });

  it('a form body is cleaned the same way', async () => {
    const res = await t
      .client()
      .request('POST', '/api/streamers', { form: { name: 'Form\u0000 Nul', submitter: 'a\u0000b' } });
    expect(res.status).toBe(201);
  });
});

describe('JSON prototype keys', () => {
  it.each([
    ['{"__proto__": {"admin": true}, "name": "Proto One"}'],
    ['{"constructor": {"prototype": {"x": 1}}, "name": "Proto Two"}'],
  ])('%s is 400 Invalid JSON and changes nothing', async (body) => {
    const before = await countRows(t.db, 'streamers');
    const res = await t
      .client()
      .post('/api/streamers', body, { headers: { 'content-type': 'application/json' } });
    expect([res.status, res.body]).toEqual([400, { error: 'Invalid JSON', code: 'invalid_json' }]);
    expect(await countRows(t.db, 'streamers')).toBe(before);
  });

  it('form keys that could reach a prototype are dropped', async () => {
    const res = await t.client().request('POST', '/api/streamers', {
      form: { __proto__x: '1', name: 'Form Proto', 'constructor[prototype]': 'x' },
    });
    expect(res.status).toBe(201);
    expect(({} as Record<string, unknown>).prototype).toBeUndefined();
  });
});
