/**
 * Fixed probes: the requests behind issue 8's findings (malformed URLs and request lines,
 * oversized headers, NUL bytes, invalid UTF-8, repeated parameters, prototype keys, huge
 * fields), sent in every fuzz run before the random ones.
 */
import type { Expect, Fixture, FuzzCase, Who } from './fuzz-cases.ts';

const raw = (label: string, text: string, expect?: Expect): FuzzCase => ({
  kind: 'raw',
  label,
  bytes: Buffer.from(text, 'latin1'),
  ...(expect ? { expect } : {}),
});
const get = (label: string, who: Who, path: string, expect?: Expect): FuzzCase => ({
  kind: 'http',
  label,
  who,
  method: 'GET',
  path,
  ...(expect ? { expect } : {}),
});
const json = (
  label: string,
  who: Who,
  method: string,
  path: string,
  body: string | Buffer,
  expect?: Expect,
): FuzzCase => ({
  kind: 'http',
  label,
  who,
  method,
  path,
  body,
  type: 'application/json',
  ...(expect ? { expect } : {}),
});

/** The requests of issue 8's findings, sent in every run. */
export function fixedCases(f: Fixture): FuzzCase[] {
  const head = 'Host: 127.0.0.1\r\nConnection: close\r\n';
  const post = (path: string, type: string, body: string) =>
    `POST ${path} HTTP/1.1\r\n${head}Content-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body, 'latin1')}\r\n\r\n${body}`;
  const member = (login: string) => JSON.stringify({ group_id: f.groupId, login });
  const cases: FuzzCase[] = [
    // Malformed paths and request lines: the earliest failures.
    raw('malformed path /%', `GET /% HTTP/1.1\r\n${head}\r\n`),
    raw('malformed path /api/streamers%E0%A4%A', `GET /api/streamers%E0%A4%A HTTP/1.1\r\n${head}\r\n`),
    get('malformed path /% (fetch)', 'anonymous', '/%'),
    get('malformed path /api/%zz', 'anonymous', '/api/%zz'),
    raw('request line without a version', `GET /\r\n${head}\r\n`),
    raw('garbage request line', `GARBAGE\r\n${head}\r\n`),
    raw('request line with NUL', `GET /\u0000 HTTP/1.1\r\n${head}\r\n`),
    raw('unknown HTTP version', `GET / HTTP/9.9\r\n${head}\r\n`),
    raw('no Host header', 'GET /api/streamers HTTP/1.1\r\nConnection: close\r\n\r\n'),
    raw('header without a colon', `GET / HTTP/1.1\r\n${head}Broken header\r\n\r\n`),
    raw(
      'invalid Content-Length',
      `POST /api/comments HTTP/1.1\r\n${head}Content-Type: application/json\r\nContent-Length: -1\r\n\r\n`,
    ),
    raw(
      'Content-Length and Transfer-Encoding',
      `POST /api/comments HTTP/1.1\r\n${head}Content-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    ),
    raw(
      'invalid chunk size',
      `POST /api/comments HTTP/1.1\r\n${head}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    ),
    raw('oversized header (20 KB)', `GET / HTTP/1.1\r\n${head}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
    raw(
      'too many headers (100 x 1 KB)',
      `GET /api/streamers HTTP/1.1\r\n${head}${Array.from({ length: 100 }, (_, i) => `X-H${i}: ${'b'.repeat(1000)}\r\n`).join('')}\r\n`,
    ),
    raw('URL of 100 KB', `GET /api/streamers?q=${'c'.repeat(100_000)} HTTP/1.1\r\n${head}\r\n`),
    raw('invalid UTF-8 bytes in the path', `GET /api/\xff\xfe HTTP/1.1\r\n${head}\r\n`),
    raw(
      'invalid UTF-8 in a JSON body',
      post(
        '/api/comments',
        'application/json',
        `{"streamer_id":${f.streamerId},"body":"ab\xff\xfe\xc3\x28cd"}`,
      ),
    ),
    raw(
      'invalid UTF-8 in a form body',
      post(
        '/api/comments',
        'application/x-www-form-urlencoded',
        `streamer_id=${f.streamerId}&body=ab\xff\xfecd`,
      ),
    ),
    // NUL bytes in query and body fields.
    get('NUL in q of /api/users', 'admin', '/api/users?q=%00'),
    get('NUL inside q of /api/users', 'admin', '/api/users?q=ab%00cd'),
    get(
      'NUL in state of the provider_b callback',
      'anonymous',
      '/api/oauth/login/provider_b?state=%00&code=x',
    ),
    get(
      'NUL in state of the provider_b callback (signed in)',
      'user',
      '/api/oauth/login/provider_b?state=ab%00cd&code=x',
    ),
    get(
      'NUL in state of the provider_a callback',
      'anonymous',
      '/api/oauth/login/provider_a?state=%00&code=x',
    ),
    json('NUL in a member login', 'admin', 'POST', '/api/rater_groups?members=1', member('ab\u0000cd')),
    json('NUL as a member login', 'admin', 'POST', '/api/rater_groups?members=1', member('\u0000')),
    json(
      'NUL in a comment',
      'anonymous',
      'POST',
      '/api/comments',
      JSON.stringify({ streamer_id: f.streamerId, body: 'ab\u0000cd', author: '\u0000' }),
    ),
    json(
      'NUL in a suggestion',
      'anonymous',
      'POST',
      '/api/streamers',
      JSON.stringify({ name: 'Nul\u0000Name', submitter: '\u0000', kick_name: '\u0000' }),
    ),
    json(
      'NUL in a group name',
      'admin',
      'POST',
      '/api/rater_groups',
      JSON.stringify({ name: 'Team\u0000Nul' }),
    ),
    json(
      'NUL in notes, game and title',
      'admin',
      'PUT',
      `/api/streamers?id=${f.streamerId}`,
      JSON.stringify({ r: { s: 1 }, notes: '\u0000', game: 'a\u0000', title: '\u0000b' }),
    ),
    json(
      'NUL in the administrator password',
      'anonymous',
      'POST',
      '/api/auth/login',
      JSON.stringify({ password: 'x\u0000' }),
    ),
    {
      kind: 'http',
      label: 'NUL in a form field',
      who: 'anonymous',
      method: 'POST',
      path: '/api/comments',
      type: 'application/x-www-form-urlencoded',
      body: `streamer_id=${f.streamerId}&body=ab%00cd`,
    },
    get('NUL in streamer_id', 'anonymous', '/api/comments?streamer_id=1%00'),
    get('invalid UTF-8 in a query', 'admin', '/api/users?q=%FF%FE%C3%28'),
    get('a lone surrogate in a query', 'admin', '/api/users?q=%ED%A0%80'),
    // Repeated parameters never open the administrator's debug operation.
    get('repeated action=debug', 'anonymous', '/api/oauth?action=debug&action=debug', { status: 401 }),
    get('repeated action=debug (signed in)', 'user', '/api/oauth?action=debug&action=debug', { status: 401 }),
    get('action=debug then me', 'anonymous', '/api/oauth?action=debug&action=me', { status: 401 }),
    get('debug with a repeated parameter', 'anonymous', '/api/oauth/debug?action=debug&action=debug', {
      status: 401,
    }),
    get('repeated all=1', 'anonymous', '/api/streamers?all=1&all=1'),
    json(
      'repeated admin=1',
      'anonymous',
      'POST',
      '/api/streamers?admin=1&admin=1',
      JSON.stringify({ name: 'Repeated Admin' }),
      { status: 401 },
    ),
    // JSON with prototype keys is refused, not taken as data.
    json(
      '__proto__ key',
      'anonymous',
      'POST',
      '/api/streamers',
      '{"name":"Proto One","__proto__":{"added_by":"admin"}}',
      { status: 400 },
    ),
    json(
      'constructor.prototype keys',
      'anonymous',
      'POST',
      '/api/streamers',
      '{"name":"Proto Two","constructor":{"prototype":{"added_by":"admin"}}}',
      { status: 400 },
    ),
    json(
      '__proto__ in a rating',
      'admin',
      'PUT',
      `/api/streamers?id=${f.streamerId}`,
      '{"r":{"__proto__":{"s":10}}}',
      { status: 400 },
    ),
    json(
      '__proto__ in a comment',
      'anonymous',
      'POST',
      '/api/comments',
      `{"streamer_id":${f.streamerId},"body":"proto","__proto__":{"is_admin":true}}`,
      { status: 400 },
    ),
    // Huge fields.
    json(
      'submitter of 5,000 characters',
      'anonymous',
      'POST',
      '/api/streamers',
      JSON.stringify({ name: 'Long Submitter', submitter: 's'.repeat(5000) }),
    ),
    json(
      'notes, title and game of 5,000 characters',
      'admin',
      'PUT',
      `/api/streamers?id=${f.streamerId}`,
      JSON.stringify({
        r: { s: 2 },
        notes: 'n'.repeat(5000),
        title: 't'.repeat(5000),
        game: 'g'.repeat(5000),
      }),
    ),
    json(
      'comment of 70 KB',
      'anonymous',
      'POST',
      '/api/comments',
      JSON.stringify({ streamer_id: f.streamerId, body: 'x'.repeat(70_000) }),
      { status: 413 },
    ),
    json(
      'name of 60,000 characters',
      'anonymous',
      'POST',
      '/api/streamers',
      JSON.stringify({ name: 'y'.repeat(60_000) }),
    ),
    json(
      'member login of 10,000 characters',
      'admin',
      'POST',
      '/api/rater_groups?members=1',
      member('l'.repeat(10_000)),
    ),
    json(
      'deeply nested JSON',
      'anonymous',
      'POST',
      '/api/comments',
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
    ),
    // Issue 18: an object nested 5,000 deep inside a body once overflowed the stack (500).
    ...(
      [
        ['POST', '/api/comments'],
        ['POST', '/api/streamers?admin=1'],
        ['POST', '/api/rater_groups'],
        ['PUT', '/api/settings'],
      ] as const
    ).map(([method, path]) =>
      json(
        `an object nested 5,000 deep (${method} ${path})`,
        'admin',
        method,
        path,
        `{"body":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`,
        { status: 400 },
      ),
    ),
    // The fixture is real: the NUL logins above are checked against a group that exists.
    json('member add of a signed-in user', 'admin', 'POST', '/api/rater_groups?members=1', member(f.login), {
      status: 200,
    }),
  ];
  return cases.map((c) => ({ ...c, fixed: true }));
}
