import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { allows, type Role } from '../src/plugins/guards.ts';
import { countRows, startApp, useApp } from './helpers/app.ts';
import { Client } from './helpers/client.ts';

const t = await useApp({ CORS_ORIGINS: 'https://allowed.example' });
const own = t.config.origin;

const SECURITY_HEADERS = (h: Headers) => {
  expect(h.get('x-content-type-options')).toBe('nosniff');
  expect(h.get('referrer-policy')).toBe('no-referrer');
  const csp = h.get('content-security-policy') ?? '';
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
};

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
    expect(res.body).toEqual({ error: 'Forbidden' });
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

describe('content types and body limits', () => {
  it.each([
    ['text/plain', 'name=abc'],
    [
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nabc\r\n--x--',
    ],
    ['application/xml', '<name>abc</name>'],
  ])('%s is 415 Unsupported media type and changes nothing', async (type, body) => {
    const before = await countRows(t.db, 'streamers');
    const res = await t.client().post('/api/streamers', body, { headers: { 'content-type': type } });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ error: 'Unsupported media type' });
    expect(await countRows(t.db, 'streamers')).toBe(before);
  });

  it('a body over 64 KiB is 413 Payload too large', async () => {
    const res = await t.client().post('/api/comments', { streamer_id: 1, body: 'x'.repeat(70_000) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'Payload too large' });
  });

  it('broken JSON and non-object JSON are 400 Invalid JSON', async () => {
    for (const body of ['{"name": ', '[1,2]', '42', 'nul']) {
      const res = await t
        .client()
        .post('/api/streamers', body, { headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid JSON' });
    }
  });
});

describe('security headers', () => {
  it('are on 200, 401, 404, 405, 415 and 429 answers', async () => {
    const limited = await startApp({ RATE_LIMIT: 'on' });
    try {
      for (let i = 0; i < 5; i++) await limited.client().post('/api/streamers', { name: `rl ${i}` });
      const r429 = await limited.client().post('/api/streamers', { name: 'rl 6' });
      expect(r429.status).toBe(429);
      SECURITY_HEADERS(r429.headers);
    } finally {
      await limited.close();
    }
    const answers = await Promise.all([
      t.client().get('/api/streamers'),
      t.client().get('/api/users'),
      t.client().get('/no/such/page'),
      t.client().request('PATCH', '/api/streamers'),
      t.client().post('/api/streamers', 'x', { headers: { 'content-type': 'text/plain' } }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 401, 404, 405, 415]);
    for (const a of answers) SECURITY_HEADERS(a.headers);
  });
});

describe('unexpected failures', () => {
  it('give a generic 500 with headers, the log has the detail, and the process keeps serving', async () => {
    const app = await startApp();
    try {
      const sid = await app.streamer('Broken');
      await app.db.schema.dropTable('comments').execute();
      const res = await app.client().get(`/api/comments?streamer_id=${sid}`);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'Internal error' });
      expect(res.text).not.toMatch(/comments|select|stack|at /i);
      SECURITY_HEADERS(res.headers);
      const logged = app.logs.find((l) => l.includes('unexpected error'));
      expect(logged).toMatch(/comments/);
      expect(logged).toContain('"reqId"');
      expect((await app.client().get('/healthz')).status).toBe(200);
      expect((await app.client().get('/api/streamers')).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('client address and rate limits', () => {
  it('without TRUST_PROXY, a spoofed X-Forwarded-For does not get a fresh bucket', async () => {
    const app = await startApp({ RATE_LIMIT: 'on' });
    try {
      const statuses = [];
      for (let i = 0; i < 6; i++) {
        const c = app.client({ 'x-forwarded-for': `203.0.113.${i}` });
        statuses.push((await c.post('/api/streamers', { name: `spoof ${i}` })).status);
      }
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    } finally {
      await app.close();
    }
  });

  it('with TRUST_PROXY naming the proxy, each forwarded client has its own bucket', async () => {
    const app = await startApp({ RATE_LIMIT: 'on', TRUST_PROXY: '127.0.0.1/32' });
    try {
      for (let i = 0; i < 5; i++)
        await app.client({ 'x-forwarded-for': '203.0.113.7' }).post('/api/streamers', { name: `p ${i}` });
      expect(
        (await app.client({ 'x-forwarded-for': '203.0.113.7' }).post('/api/streamers', { name: 'p 6' }))
          .status,
      ).toBe(429);
      expect(
        (await app.client({ 'x-forwarded-for': '203.0.113.8' }).post('/api/streamers', { name: 'p 7' }))
          .status,
      ).toBe(201);
    } finally {
      await app.close();
    }
  });

  it('RATE_LIMIT=off turns the limits off', async () => {
    for (let i = 0; i < 8; i++)
      expect((await t.client().post('/api/streamers', { name: `free ${i}` })).status).toBe(201);
  });
});

describe('every route states who may call it', () => {
  const roleOf = (guard: unknown, query: Record<string, string>): Role =>
    typeof guard === 'function' ? guard({ query } as never) : (guard as Role);

  it('walking every registered route as anonymous: guarded routes refuse with 401', async () => {
    const routes = t.app.routeList.filter((r) => r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(15);
    for (const route of routes) {
      expect(route.guard, `${route.method} ${route.url} has a guard`).toBeDefined();
      for (const query of [{}, { admin: '1' }, { my: '1' }, { members: '1' }, { lock: '1' }] as Record<
        string,
        string
      >[]) {
        const role = roleOf(route.guard, query);
        if (role === 'public') continue;
        const path = route.url.replace(':action', 'x') + '?' + new URLSearchParams({ id: '1', ...query });
        const res = await t.client().request(route.method, path, route.method === 'GET' ? {} : { body: {} });
        expect(res.status, `${route.method} ${path} as anonymous`).toBe(401);
      }
    }
  });

  it('a route registered without a guard is denied to everybody', async () => {
    const app = await buildApp({ config: t.config, db: t.db, logger: false });
    app.get('/api/unmarked', async () => ({ secret: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as { port: number };
      const res = await new Client(`http://127.0.0.1:${port}`).get('/api/unmarked');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Unauthorized' });
    } finally {
      await app.close();
    }
  });

  it('roles: public allows everyone, the others need the matching viewer', () => {
    const req = (viewer: object) => ({ viewer }) as never;
    const anon = { isAdmin: false, isMod: false, user: null };
    expect(allows('public', req(anon))).toBe(true);
    expect(allows('signedIn', req(anon))).toBe(false);
    expect(allows('admin', req({ ...anon, isMod: true }))).toBe(false);
    expect(allows('adminOrModerator', req({ ...anon, isMod: true }))).toBe(true);
  });
});

describe('random and binary input never gives a 5xx', () => {
  const scalar = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.string({ unit: 'binary', maxLength: 40 }),
  );
  const json = fc.dictionary(
    fc.constantFrom(
      'name',
      'body',
      'streamer_id',
      'r',
      'password',
      'login',
      'group_id',
      'role',
      'notes',
      'reward',
      'status',
      'community_locked',
      'auth_enabled',
      'banned',
      'x',
    ),
    fc.oneof(
      scalar,
      fc.dictionary(fc.string({ maxLength: 3 }), scalar, { maxKeys: 4 }),
      fc.array(scalar, { maxLength: 3 }),
    ),
    { maxKeys: 6 },
  );
  const query = fc.dictionary(
    fc.constantFrom('id', 'all', 'admin', 'lock', 'my', 'members', 'member', 'streamer_id', 'action', 'q'),
    fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.integer().map(String),
    ),
    { maxKeys: 3 },
  );
  const paths = [
    '/api/streamers',
    '/api/comments',
    '/api/rater_groups',
    '/api/auth',
    '/api/auth/login',
    '/api/users',
    '/api/settings',
  ];

  it('JSON bodies and query strings of every shape, as administrator and anonymous', async () => {
    const admin = await t.admin();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
        query,
        json,
        fc.boolean(),
        async (path, method, q, body, asAdmin) => {
          const c = asAdmin ? admin : t.client();
          const url = `${path}?${new URLSearchParams(q)}`;
          const res = await c.request(method, url, method === 'GET' ? {} : { body });
          expect(res.status, `${method} ${url} ${JSON.stringify(body)}`).toBeLessThan(500);
          expect(res.text).not.toMatch(/\bat .+\.ts:\d+|stack/);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('raw bytes as bodies of any declared type', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'application/octet-stream'),
        fc.uint8Array({ maxLength: 200 }),
        async (path, type, bytes) => {
          const res = await fetch(t.url + path, {
            method: 'POST',
            headers: { 'content-type': type },
            body: bytes,
          });
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
  });
});
