import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webRoot } from '../src/pages/assets.ts';
import { ADMIN_PASSWORD, startApp, type TestUser, useApp } from './helpers/app.ts';
import { Client } from './helpers/client.ts';
import { type Exchange, operationOf, violations } from './helpers/contract.ts';

/**
 * The contract, from outside: requests made from the API document alone (every operation,
 * its parameters and bodies as documented, in every role, plus the requests every operation
 * must withstand: cross-site, a wrong or oversized body, invalid JSON, If-None-Match, HEAD),
 * each answer held against the document as a validating proxy would. A new route is walked
 * the moment it is registered. The rest of the suite's traffic is held against the document
 * too (helpers/contract-live.ts); this file makes sure nothing is left unvisited.
 */

type Json = Record<string, any>;

const t = await useApp();
const doc = (await t.client().get('/api/openapi.json')).body as Json;

/** Every answer this file saw, with its violations. */
const seen: { exchange: Exchange; problems: string[]; role: string }[] = [];

async function send(
  role: string,
  client: Client,
  method: string,
  url: string,
  opts: { body?: string; headers?: Record<string, string> } = {},
): Promise<Exchange> {
  const headers: Record<string, string> = { ...opts.headers };
  if (client.cookies.size > 0) headers.cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(t.url + url, { method, headers, body: opts.body, redirect: 'manual' });
  // An event stream never ends by itself: its head is the answer.
  const stream = res.headers.get('content-type')?.startsWith('text/event-stream') === true;
  if (stream) await res.body?.cancel();
  const exchange = {
    method,
    url,
    status: res.status,
    headers: res.headers,
    text: stream ? '' : await res.text(),
  };
  seen.push({ exchange, problems: violations(doc, exchange), role });
  return exchange;
}

const resolve = (node: Json | undefined): Json | undefined =>
  typeof node?.$ref === 'string'
    ? node.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<Json | undefined>((acc, k) => acc?.[k], doc)
    : node;

/** A value of a documented schema, as a client following the document would send it. */
function sample(schemaRef: Json | undefined, name: string): unknown {
  const schema = resolve(schemaRef) ?? {};
  if (name === 'password') return ADMIN_PASSWORD;
  if (schema.enum) return schema.enum[0];
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (variants) return sample(variants.find((v) => resolve(v)?.type !== 'null') ?? variants[0], name);
  switch (schema.type) {
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, Math.min(schema.maximum ?? 5, 5));
    case 'boolean':
      return true;
    case 'object':
      return Object.fromEntries(
        Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([k, v]) => [k, sample(v, k)]),
      );
    case 'array':
      return [sample(schema.items, name)];
    default: {
      const length = Math.min(Math.max(schema.minLength ?? 0, 8), schema.maxLength ?? 8);
      return `${name}-sample-text`.slice(0, length).padEnd(length, 'x');
    }
  }
}

/** The bodies to send: each documented shape (each member of a union), or none. */
function bodies(op: Json): (string | undefined)[] {
  const schema = resolve(op.requestBody?.content?.['application/json']?.schema);
  if (!schema) return [undefined];
  const variants = ((schema.anyOf ?? schema.oneOf) as Json[] | undefined) ?? [schema];
  return variants.map((v) => JSON.stringify(sample(v, 'body')));
}

const builtFile = readdirSync(join(webRoot(), 'assets')).find((f) => f.endsWith('.js')) ?? 'missing.js';

/** The addresses to ask: required parameters, then every parameter, each enumerated value once. */
function urls(path: string, op: Json, fixtures: Fixtures): string[] {
  const params = (op.parameters ?? []) as Json[];
  const pathValue = (name: string) =>
    ({ ref: `${fixtures.streamer}-some-name`, tab: 'teams', file: builtFile, provider: 'provider_a' })[
      name
    ] ?? String(sample(params.find((p) => p.name === name)?.schema, name));
  const base = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathValue(name)));
  const query = params.filter((p) => p.in === 'query');
  const value = (p: Json) => String(sample(p.schema, p.name));
  const required = new URLSearchParams(query.filter((p) => p.required).map((p) => [p.name, value(p)]));
  const variants = [
    required,
    ...query.filter((p) => !p.required).map((p) => new URLSearchParams([...required, [p.name, value(p)]])),
  ];
  for (const p of query) {
    for (const v of (resolve(p.schema)?.enum ?? []) as string[])
      variants.push(new URLSearchParams([...required, [p.name, v]]));
  }
  return [...new Set(variants.map((q) => (q.size > 0 ? `${base}?${q}` : base)))];
}

interface Fixtures {
  streamer: number;
  roles: [name: string, make: () => Promise<Client>][];
}
let fixtures: Fixtures;

beforeAll(async () => {
  const streamer = await t.streamer('Contract Streamer', { s: 5, g: 4 });
  await t.streamer('Second Streamer', { s: 1 });
  const admin = await t.admin();
  await admin.post('/api/comments', { streamer_id: streamer, body: 'A staff comment' });
  const member = await t.user({ login: 'contract_member' });
  const user = await t.user({ login: 'contract_user' });
  const mod = await t.user({ login: 'contract_mod' }, { mod: true });
  const team = (await admin.post('/api/rater_groups', { name: 'Contract Team', streamer_id: streamer })).body
    .id;
  await admin.post('/api/rater_groups?members=1', { group_id: team, login: 'contract_member' });
  const as = (u: TestUser) => () => t.signedIn(u);
  fixtures = {
    streamer,
    roles: [
      ['anonymous', async () => new Client(t.url)],
      ['user', as(user)],
      ['team member', as(member)],
      ['moderator', as(mod)],
      ['administrator', () => t.admin()],
    ],
  };
  await (await t.signedIn(user)).post('/api/comments', { streamer_id: streamer, body: 'A user comment' });
});

const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, Json>>)
    .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })))
    // Deletions and sign-outs last, so the others find the fixtures and sessions.
    .sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));

describe('every documented operation, in every role, answers as documented', () => {
  it('walks the document: each operation with its documented parameters and bodies, as each role', async () => {
    const sessions = async () =>
      Promise.all(fixtures.roles.map(async ([role, make]) => [role, await make()] as const));
    let clients = await sessions();
    for (const { path, method, op } of operations()) {
      for (const [role, client] of clients) {
        for (const url of urls(path, op, fixtures)) {
          for (const body of bodies(op)) {
            const headers: Record<string, string> = body ? { 'content-type': 'application/json' } : {};
            const first = await send(role, client, method.toUpperCase(), url, { body, headers });
            const etag = first.headers.get('etag');
            if (method === 'get') {
              if (role === 'anonymous' || role === 'administrator') await send(role, client, 'HEAD', url);
              if (etag) await send(role, client, 'GET', url, { headers: { 'if-none-match': etag } });
            }
          }
        }
      }
      // Logging in and out changes the sessions: each role starts the next operation afresh.
      if (/^\/api\/(auth|oauth)/.test(path)) clients = await sessions();
    }
    const visited = new Set(
      seen.map((s) => operationOf(doc, s.exchange.method, s.exchange.url)?.template + s.exchange.method),
    );
    for (const { path, method } of operations()) {
      expect(visited.has(path + method.toUpperCase()), `${method} ${path} was asked`).toBe(true);
    }
  });

  it('every unsafe operation withstands a cross-site request, a wrong type, an oversized body and invalid JSON', async () => {
    // Whoever passes every guard: the administrator, signed in as a user too.
    const admin = await t.signedIn(await t.user({ login: 'contract_admin_user' }), {
      is_admin: true,
      admin_at: t.clock.now().toISOString(),
    });
    for (const { path, method, op } of operations()) {
      if (!['post', 'put', 'patch', 'delete'].includes(method)) continue;
      const [url = path] = urls(path, op, fixtures);
      const m = method.toUpperCase();
      const json = { 'content-type': 'application/json' };
      const crossSite = await send('administrator', admin, m, url, {
        body: '{}',
        headers: { ...json, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      });
      // The one-click unsubscription (RFC 8058) is posted from mail providers' servers: its token
      // is the right, and it takes cross-site posts (plugins/csrf.ts `crossSite`).
      if (path === '/api/mail/unsubscribe' && m === 'POST')
        expect(crossSite.status, `${m} ${url} cross-site`).not.toBe(403);
      else expect(crossSite.status, `${m} ${url} cross-site`).toBe(403);
      const plain = await send('administrator', admin, m, url, {
        body: 'x',
        headers: { 'content-type': 'text/plain' },
      });
      expect(plain.status, `${m} ${url} text/plain`).toBe(415);
      const big = JSON.stringify({ body: 'x'.repeat(70_000) });
      expect(
        (await send('administrator', admin, m, url, { body: big, headers: json })).status,
        `${m} ${url} big`,
      ).toBe(413);
      const broken = await send('administrator', admin, m, url, { body: '{"a":', headers: json });
      expect(broken.status, `${m} ${url} invalid JSON`).toBe(400);
    }
  });

  it('addresses that name no route, or a path parameter that is not valid percent-encoding, get the documented errors', async () => {
    const c = new Client(t.url);
    expect((await send('anonymous', c, 'GET', '/api/nothing-here')).status).toBe(404);
    expect((await send('anonymous', c, 'GET', '/s/%E0%A4%A')).status).toBe(400);
    expect((await send('anonymous', c, 'GET', `/s/${'1'.repeat(300)}`)).status).toBe(400);
    expect((await send('anonymous', c, 'GET', '/s/not-an-id')).status).toBe(404);
  });

  afterAll(() => {
    const problems = seen.flatMap((s) => s.problems.map((p) => `${s.role}: ${p}`));
    expect([...new Set(problems)]).toEqual([]);
  });
});

describe('the answers kept as rendered bytes hold to their route schema', () => {
  it('the list in each view, one item, the comments whole and paged, hidden ones for staff, and their 304s', async () => {
    const staff = await t.admin();
    const id = await t.streamer('Rendered Streamer', { s: 8 });
    const login = 'rendered_member';
    const member = await t.signedIn(await t.user({ login }));
    const team = (await staff.post('/api/rater_groups', { name: 'Rendered Team', streamer_id: id })).body.id;
    await staff.post('/api/rater_groups?members=1', { group_id: team, login });
    await member.post('/api/comments', { streamer_id: id, body: 'A member speaks' });
    // (the walk above may have made commenting need a sign-in)
    const hide = (await member.post('/api/comments', { streamer_id: id, body: 'To be hidden' })).body.id;
    await staff.put(`/api/comments?id=${hide}`, { hidden: true });
    const asked: [string, Client, string][] = [
      ['anonymous', new Client(t.url), '/api/streamers'],
      ['team member', member, '/api/streamers'],
      ['administrator', staff, '/api/streamers?all=1'],
      ['administrator', staff, `/api/streamers?all=1&id=${id}`],
      ['anonymous', new Client(t.url), `/api/streamers?id=${id}`],
      ['anonymous', new Client(t.url), `/api/comments?streamer_id=${id}`],
      ['anonymous', new Client(t.url), `/api/comments?streamer_id=${id}&limit=1`],
      ['administrator', staff, `/api/comments?streamer_id=${id}`],
    ];
    for (const [role, client, url] of asked) {
      for (const encoding of ['br', 'gzip', 'identity']) {
        const answer = await send(role, client, 'GET', url, { headers: { 'accept-encoding': encoding } });
        expect(answer.status, url).toBe(200);
        expect(violations(doc, answer), url).toEqual([]);
        const again = await send(role, client, 'GET', url, {
          headers: { 'if-none-match': answer.headers.get('etag') ?? '' },
        });
        expect(again.status, url).toBe(304);
        expect(again.headers.get('content-type'), `${url}: a 304 names no type`).toBeNull();
        expect(violations(doc, again), url).toEqual([]);
      }
    }
    const hidden = (await staff.get(`/api/comments?streamer_id=${id}`)).body as Json[];
    expect(hidden.some((c) => c.hidden)).toBe(true);
  });

  it('the answers written before routing (the public list to a cookie-less visitor, /healthz) too', async () => {
    const fast = await startApp({}, { logLevel: 'warn' });
    try {
      await fast.streamer('Fast Streamer', { s: 7 });
      const fastDoc = fast.app.swagger() as Json;
      const get = async (url: string, headers: Record<string, string> = {}) => {
        const res = await fetch(fast.url + url, { headers });
        return { method: 'GET', url, status: res.status, headers: res.headers, text: await res.text() };
      };
      // Rendered by the route and kept for the next visitors; the database checked by /healthz.
      await get('/api/streamers');
      await get('/healthz');
      const before = fast.app.earlyAnswers.served;
      const list = await get('/api/streamers');
      const notModified = await get('/api/streamers', { 'if-none-match': list.headers.get('etag') ?? '' });
      const health = await get('/healthz');
      expect(fast.app.earlyAnswers.served - before).toBe(3);
      expect([list.status, notModified.status, health.status]).toEqual([200, 304, 200]);
      expect(notModified.headers.get('content-type')).toBeNull();
      for (const answer of [list, notModified, health])
        expect(violations(fastDoc, answer), answer.url).toEqual([]);
    } finally {
      await fast.close();
    }
  });

  it('rate limits answer 429 with Retry-After and the rate-limit headers, as documented', async () => {
    const limited = await startApp({ RATE_LIMIT: 'on' });
    try {
      const limitedDoc = limited.app.swagger() as Json;
      const c = new Client(limited.url);
      const answers: Exchange[] = [];
      for (let i = 0; i < 12; i++) {
        const res = await fetch(`${limited.url}/api/comments`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ streamer_id: 1, body: `comment ${i}` }),
        });
        answers.push({
          method: 'POST',
          url: '/api/comments',
          status: res.status,
          headers: res.headers,
          text: await res.text(),
        });
      }
      expect(answers.map((a) => a.status)).toContain(429);
      expect(answers.find((a) => a.status === 429)?.headers.get('retry-after')).toMatch(/^\d+$/);
      for (const a of answers) expect(violations(limitedDoc, a)).toEqual([]);
      expect(c.cookies.size).toBe(0);
    } finally {
      await limited.close();
    }
  });
});
