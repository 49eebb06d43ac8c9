/** Random requests (fast-check): routes, query parameters and bodies of every shape, and raw request lines. */
import fc from 'fast-check';
import type { FuzzCase, Who } from './fuzz-cases.ts';

const ROUTES = [
  '/api/streamers',
  '/api/streamers?admin=1',
  '/api/comments',
  '/api/rater_groups',
  '/api/rater_groups?members=1',
  '/api/community_ratings',
  '/api/users',
  '/api/settings',
  '/api/auth',
  '/api/auth/check',
  '/api/auth/login',
  '/api/oauth',
  '/api/oauth/me',
  '/api/oauth/debug',
  '/api/oauth/login/provider_a',
  '/api/oauth/login/provider_b',
  '/api/audit',
  '/api/sync',
  '/healthz',
  '/api/openapi.json',
  '/api/docs',
  '/',
  '/s/1-some-name',
  '/index.html',
];
const KEYS = [
  'id',
  'streamer_id',
  'group_id',
  'q',
  'action',
  'provider',
  'state',
  'code',
  'error',
  'all',
  'admin',
  'lock',
  'my',
  'members',
  'member',
  'limit',
  'before',
  'name',
  'body',
  'author',
  'login',
  'role',
  'r',
  'notes',
  'reward',
  'status',
  'game',
  'title',
  'kick_name',
  'provider_a',
  'provider_b',
  'submitter',
  'password',
  'community_locked',
  'auth_enabled',
  'banned',
  'is_mod',
  'hidden',
  'platform',
  '__proto__',
  'constructor',
  'prototype',
];
const ODD = [
  '%00',
  'a%00b',
  '%E0%A4%A',
  '%FF%FE',
  '%',
  '%%',
  '%C0%AF',
  '%ED%A0%80',
  '\u0000',
  '1e309',
  '-1',
  '0',
  'NaN',
  '9007199254740993',
  '1.5',
  '[]',
  '{}',
  'true',
];

const huge = fc.constantFrom(1001, 2001, 5000, 70_000).map((size) => 'é'.repeat(size));
const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom(...ODD),
  fc.integer().map(String),
);
const jsonValue = fc.oneof(fc.jsonValue({ maxDepth: 2 }), text, huge, fc.constant({ s: 99, g: -5, a: 'x' }));
/** A value nested `depth` deep in arrays or objects (issue 18: 5,000 deep once overflowed the stack). */
export function nested(depth: number, kind: 'array' | 'object' | 'mixed'): string {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    const array = kind === 'array' || (kind === 'mixed' && i % 2 === 1);
    open += array ? '[' : '{"a":';
    close = (array ? ']' : '}') + close;
  }
  return `${open}1${close}`;
}
/** Very wide: thousands of keys, or one array of thousands of items, within the 64 KiB body limit. */
const wide = fc.constantFrom(
  JSON.stringify(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i]))),
  `{"r":[${Array.from({ length: 20_000 }, () => '0').join(',')}]}`,
  `{"body":{${Array.from({ length: 3000 }, (_, i) => `"${i}":{}`).join(',')}}}`,
);
const deepOrWide = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(33, 100, 1000, 5000, 20_000),
      fc.constantFrom<'array' | 'object' | 'mixed'>('array', 'object', 'mixed'),
      fc.constantFrom(...KEYS),
    )
    .map(([depth, kind, key]) => `{"${key}":${nested(depth, kind)}}`),
  wide,
);
const jsonBody = fc.oneof(
  {
    weight: 9,
    arbitrary: fc
      .dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 8 })), jsonValue, { maxKeys: 6 })
      .map((o) => JSON.stringify(o)),
  },
  { weight: 1, arbitrary: deepOrWide },
);
const query = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 6 })), text, fc.boolean()), {
    maxLength: 4,
  })
  .map((pairs) =>
    pairs
      .map(
        ([k, v, raw]) => `${encodeURIComponent(k)}=${raw ? v.replace(/[#\s]/g, '') : encodeURIComponent(v)}`,
      )
      .join('&'),
  );
const segment = fc.oneof(
  fc.constantFrom(...ROUTES),
  fc.constantFrom(...ODD).map((s) => `/api/${s}`),
  fc.webSegment().map((s) => `/${s}`),
);

const httpCase = fc
  .record({
    who: fc.constantFrom<Who>('anonymous', 'anonymous', 'admin', 'user'),
    method: fc.constantFrom('GET', 'GET', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'),
    route: segment,
    query,
    body: fc.oneof(
      fc.constant(undefined),
      jsonBody.map((b) => ({ type: 'application/json', body: b })),
      jsonBody.map((b) => ({
        type: 'application/json',
        body: Buffer.concat([
          Buffer.from(b.slice(0, -1) + (b.length > 2 ? ',' : '')),
          Buffer.from('"x":"\xff\xfe\xc3\x28"}', 'latin1'),
        ]),
      })),
      fc.string({ maxLength: 40 }).map((b) => ({ type: 'application/json', body: b })),
      fc.dictionary(fc.constantFrom(...KEYS), text, { maxKeys: 4 }).map((o) => ({
        type: 'application/x-www-form-urlencoded',
        body: new URLSearchParams(o).toString(),
      })),
      fc
        .tuple(
          fc.constantFrom(
            'text/plain',
            'multipart/form-data; boundary=x',
            'application/xml',
            'application/json; charset=utf-16',
          ),
          fc.string({ maxLength: 20 }),
        )
        .map(([type, body]) => ({ type, body })),
    ),
  })
  .map(({ who, method, route, query, body }): FuzzCase => {
    const path = query ? `${route}${route.includes('?') ? '&' : '?'}${query}` : route;
    const logout = /logout/.test(path); // would end the shared session of the administrator or user
    const withBody = body && !['GET', 'HEAD'].includes(method) ? body : undefined;
    const proto = withBody?.type === 'application/json' && hasPrototypeKey(withBody.body.toString());
    return {
      kind: 'http',
      label: `${method} ${route.split('?')[0]}`,
      who: logout ? 'anonymous' : who,
      method,
      path,
      ...(withBody ?? {}),
      ...(proto && ['POST', 'PUT', 'PATCH'].includes(method) ? { expect: { notSuccess: true } } : {}),
    };
  });

const token = fc.string({ unit: 'binary-ascii', minLength: 0, maxLength: 12 });
const rawCase = fc
  .record({
    method: fc.oneof(fc.constantFrom('GET', 'POST', 'PUT', 'BREW', 'G\u0000T', 'GET GET', ''), token),
    target: fc.oneof(
      fc.constantFrom(...ROUTES),
      fc.string({ unit: 'binary-ascii', maxLength: 60 }),
      fc.constantFrom(
        '/\xff\xfe',
        '/api/streamers?q=\xc3\x28',
        '*',
        'http://evil.example/',
        '/%',
        '/api/streamers%E0%A4%A',
      ),
    ),
    version: fc.constantFrom(
      'HTTP/1.1',
      'HTTP/1.0',
      'HTTP/2.0',
      'HTTP/1.1 x',
      '',
      'HTTP/1.1\u0000',
      'http/1.1',
    ),
    headers: fc.array(
      fc.tuple(
        fc.oneof(fc.constantFrom('Cookie', 'Origin', 'Content-Type', 'X-Forwarded-For', 'Accept'), token),
        fc.string({ unit: 'binary-ascii', maxLength: 40 }),
      ),
      { maxLength: 3 },
    ),
  })
  .map(({ method, target, version, headers }): FuzzCase => {
    const extra = headers
      .filter(([name]) => !/^(content-length|transfer-encoding|connection|host|expect)$/i.test(name.trim()))
      .map(([name, value]) => `${name}: ${value.replace(/[\r\n]/g, '')}\r\n`)
      .join('');
    return {
      kind: 'raw',
      label: `raw ${JSON.stringify(`${method} ${target} ${version}`.slice(0, 60))}`,
      bytes: Buffer.from(
        `${method} ${target} ${version}\r\nHost: 127.0.0.1\r\nConnection: close\r\n${extra}\r\n`,
        'latin1',
      ),
    };
  });

/** `count` random requests, the same for the same seed. */
export function randomCases(count: number, seed: number): FuzzCase[] {
  return fc.sample(fc.oneof({ weight: 9, arbitrary: httpCase }, { weight: 1, arbitrary: rawCase }), {
    numRuns: count,
    seed,
  });
}

/** Whether a JSON text has a `__proto__` key, or `constructor` holding `prototype`, at any depth. */
export function hasPrototypeKey(json: string): boolean {
  let found = false;
  try {
    JSON.parse(json, function (this: unknown, key, value) {
      if (key === '__proto__') found = true;
      if (key === 'constructor' && value && typeof value === 'object' && Object.hasOwn(value, 'prototype'))
        found = true;
      return value;
    });
  } catch {
    return false;
  }
  return found;
}
