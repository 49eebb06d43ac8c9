import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { COMMENT_ROLES } from '../src/comments/policy.ts';
import { TEAM_ROLES } from '../src/groups/policy.ts';
import { SESSION_ROLES } from '../src/sign-out/policy.ts';
import { allows, isRolePolicy, type Role, type RolePolicy } from '../src/shared/roles.ts';
import { STREAMER_ROLES } from '../src/streamers/policy.ts';
import { useApp } from './helpers/app.ts';
import { Client } from './helpers/client.ts';

const t = await useApp({
  CORS_ORIGINS: 'https://allowed.example',
  METRICS_TOKEN: 'route-walk-metrics-token',
});

const queryDependent = (guard: unknown) => typeof guard === 'function' && !isRolePolicy(guard);

describe('every route states who may call it', () => {
  /** A guard's role for a query: a role, a role's policy (`mayReadAudit`), or either chosen by the query. */
  const roleOf = (guard: unknown, query: Record<string, string>): Role => {
    const choice = queryDependent(guard)
      ? (guard as (q: Record<string, string>) => Role | RolePolicy)(query)
      : guard;
    return isRolePolicy(choice) ? choice.role : (choice as Role);
  };

  it('walking every registered route as anonymous: guarded routes refuse with 401', async () => {
    const routes = t.app.routeList.filter((r) => r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(15);
    for (const route of routes) {
      expect(route.guard, `${route.method} ${route.url} has a guard`).toBeDefined();
      for (const query of [
        {},
        { admin: '1' },
        { my: '1' },
        { members: '1' },
        { lock: '1' },
        { mine: '1' },
        { like: '1' },
        { user_id: '1' },
        { action: 'debug' },
      ] as Record<string, string>[]) {
        const role = roleOf(route.guard, query);
        if (role === 'public') continue;
        const path = `${route.url.replace(':action', 'x')}?${new URLSearchParams({ id: '1', ...query }).toString()}`;
        const res = await t.client().request(route.method, path, route.method === 'GET' ? {} : { body: {} });
        // A token-guarded route answers as if it did not exist.
        expect(res.status, `${route.method} ${path} as anonymous`).toBe(role === 'metricsToken' ? 404 : 401);
      }
    }
  });

  it('each query-dependent guard chooses the role its policy names for each query (checked against the policy, not the guard)', () => {
    const expected: Record<string, [Record<string, string>, Role][]> = {
      'POST /api/streamers': [
        [{ admin: '1' }, STREAMER_ROLES.add],
        [{}, STREAMER_ROLES.suggest],
      ],
      'PUT /api/streamers': [
        [{ reply: '1' }, STREAMER_ROLES.reply],
        [{}, STREAMER_ROLES.rate],
      ],
      'DELETE /api/streamers': [
        [{ reply: '1' }, STREAMER_ROLES.removeReply],
        [{}, STREAMER_ROLES.delete],
      ],
      'GET /api/rater_groups': [
        [{ my: '1' }, TEAM_ROLES.mine],
        [{}, TEAM_ROLES.manage],
      ],
      'GET /api/comments': [
        [{ mine: '1' }, COMMENT_ROLES.mine],
        [{}, COMMENT_ROLES.list],
      ],
      'PUT /api/comments': [
        [{ like: '1' }, COMMENT_ROLES.like],
        [{}, COMMENT_ROLES.change],
      ],
      'DELETE /api/sessions': [
        [{ user_id: '1' }, SESSION_ROLES.anyone],
        [{}, SESSION_ROLES.mine],
      ],
      'GET /api/oauth': [
        [{ action: 'debug' }, 'admin'],
        [{ action: 'me' }, 'public'],
      ],
    };
    const dependent = t.app.routeList.filter((r) => queryDependent(r.guard) && r.method !== 'HEAD');
    expect(dependent.map((r) => `${r.method} ${r.url}`).sort()).toEqual(Object.keys(expected).sort());
    for (const route of dependent) {
      for (const [query, role] of expected[`${route.method} ${route.url}`] ?? []) {
        expect(roleOf(route.guard, query), `${route.method} ${route.url}?${new URLSearchParams(query)}`).toBe(
          role,
        );
      }
    }
    // The roles that must stay closed to anonymous callers are indeed closed.
    for (const role of [STREAMER_ROLES.add, TEAM_ROLES.mine, TEAM_ROLES.manage, SESSION_ROLES.anyone]) {
      expect(allows(role, { user: null, isAdmin: false, isMod: false })).toBe(false);
    }
  });

  it("each guarded GET route's automatic HEAD twin refuses anonymous callers too", async () => {
    const heads = t.app.routeList.filter((r) => r.method === 'HEAD');
    expect(heads.length).toBeGreaterThan(10);
    for (const route of heads) {
      const role = roleOf(route.guard, {});
      const path = `${route.url.replace(':action', 'x')}?id=1`;
      const res = await t.client().request('HEAD', path);
      if (role === 'public') expect(res.status, `HEAD ${path}`).not.toBe(401);
      else expect(res.status, `HEAD ${path} as anonymous`).toBe(role === 'metricsToken' ? 404 : 401);
    }
  });

  it('a route registered without a guard is denied to everybody', async () => {
    const app = await buildApp({ config: t.config, database: t.database, logger: false });
    app.get('/api/unmarked', async () => ({ secret: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as { port: number };
      const res = await new Client(`http://127.0.0.1:${port}`).get('/api/unmarked');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Unauthorized', code: 'unauthorized' });
    } finally {
      await app.close();
    }
  });

  it('roles: public allows everyone, the others need the matching viewer', () => {
    const anon = {
      isAdmin: false,
      passwordAdmin: false,
      isMod: false,
      user: null,
      bannedUser: false,
      bannedSession: false,
    };
    const user = {
      id: 1,
      provider: 'provider_a' as const,
      provider_id: '1',
      login: 'u',
      display_name: 'U',
      avatar: '',
    };
    expect(allows('public', anon)).toBe(true);
    expect(allows('signedIn', anon)).toBe(false);
    expect(allows('signedIn', { ...anon, user })).toBe(true);
    expect(allows('signedInOrAdmin', anon)).toBe(false);
    expect(allows('signedInOrAdmin', { ...anon, isAdmin: true })).toBe(true);
    expect(allows('admin', { ...anon, isMod: true, user })).toBe(false);
    expect(allows('adminOrModerator', { ...anon, isMod: true, user })).toBe(true);
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
