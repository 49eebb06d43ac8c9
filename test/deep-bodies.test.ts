import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../src/plugins/parsers.ts';
import { nested } from './soak/lib/fuzz-random.ts';
import { useApp } from './helpers/app.ts';

const t = await useApp();
const INVALID_JSON = { error: 'Invalid JSON', code: 'invalid_json' };
const JSON_TYPE = { 'content-type': 'application/json' };

/** Every route that takes a body, as the app registered it (the route walk's list). */
function bodyRoutes(): { method: string; path: string }[] {
  return t.app.routeList
    .filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method))
    .map((r) => ({ method: r.method, path: `${r.url.replace(/:[a-z_]+/g, '1')}?id=1` }));
}

describe('JSON nesting is bounded (issue 18: 5,000 deep overflowed the stack)', () => {
  it('counts only brackets outside strings, without recursion', () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH, 'mixed'), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1, 'mixed'), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(JSON.stringify({ body: '[[[[{{{{'.repeat(100) }), 2)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ body: 'a\\"[[[[' }), 1)).toBe(false);
    expect(nestsDeeperThan(nested(1_000_000, 'array'), MAX_JSON_DEPTH)).toBe(true);
  });

  it('a body nested 5,000 deep answers 400 Invalid JSON on every route that takes a body, never 5xx', async () => {
    const admin = await t.admin();
    const routes = bodyRoutes();
    expect(routes.length).toBeGreaterThan(10);
    for (const kind of ['object', 'array', 'mixed'] as const) {
      const body = `{"body":${nested(5000, kind)},"streamer_id":1,"name":${nested(5000, kind)}}`;
      for (const { method, path } of routes) {
        const res = await admin.request(method, path, { body, headers: JSON_TYPE });
        expect(res.status, `${method} ${path} (${kind})`).toBeLessThan(500);
        // The administrator passes every guard but the signed-in user's own: the body is read.
        if (res.status === 400) expect(res.body, `${method} ${path}`).toEqual(INVALID_JSON);
      }
    }
    // The routes that everybody uses answer exactly that.
    for (const [method, path] of [
      ['POST', '/api/comments'],
      ['POST', '/api/streamers?admin=1'],
      ['POST', '/api/rater_groups'],
      ['PUT', '/api/settings'],
    ] as const) {
      const res = await admin.request(method, path, {
        body: `{"body":${nested(5000, 'object')}}`,
        headers: JSON_TYPE,
      });
      expect([path, res.status, res.body]).toEqual([path, 400, INVALID_JSON]);
    }
    const anonymous = await t.client().post('/api/comments', `{"body":${nested(33, 'array')}}`, {
      headers: JSON_TYPE,
    });
    expect(anonymous.status).toBe(400);
    expect(anonymous.body).toEqual(INVALID_JSON);
  });

  it('nesting up to the bound is read as usual', async () => {
    const sid = await t.streamer('Nested');
    const admin = await t.admin();
    // Extra fields are ignored; 30 levels below the top are within the bound.
    const res = await admin.post(
      '/api/comments',
      `{"streamer_id":${sid},"body":"ok","x":${nested(30, 'mixed')}}`,
      {
        headers: JSON_TYPE,
      },
    );
    expect(res.status).toBe(201);
  });

  it('very wide bodies (thousands of keys or items, up to the body limit) never answer 5xx', async () => {
    const admin = await t.admin();
    const bodies = [
      JSON.stringify(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i]))),
      `{"r":[${Array.from({ length: 30_000 }, () => '0').join(',')}]}`,
      `{"body":{${Array.from({ length: 5000 }, (_, i) => `"${i}":[]`).join(',')}}}`,
    ];
    for (const body of bodies) {
      for (const { method, path } of bodyRoutes()) {
        const res = await admin.request(method, path, { body, headers: JSON_TYPE });
        expect(res.status, `${method} ${path}`).toBeLessThan(500);
      }
    }
  });
});
