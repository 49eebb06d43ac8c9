import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { challengeOf, newVerifier } from '../src/signin/pkce.ts';
import { MINUTE } from '../src/lib/clock.ts';
import { ADMIN_PASSWORD, startApp, type TestApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';
import { type FakeProviders, startFakeProviders } from './helpers/fake-providers.ts';

let fake: FakeProviders;
let t: TestApp;
beforeAll(async () => {
  fake = await startFakeProviders();
  t = await startApp({ ...fake.env(), PROVIDER_TIMEOUT_MS: '300' });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
afterEach(() => {
  fake.a.failure = 'none';
  fake.b.failure = 'none';
  t.clock.offset = 0;
});

type P = 'provider_a' | 'provider_b';
const location = (res: { headers: Headers }) => res.headers.get('location') ?? '';
const pathOf = (u: string) => {
  const url = new URL(u);
  return url.pathname + url.search;
};

/** Starts a sign-in, lets the fake provider approve, and returns the callback path. */
async function approve(c: Client, provider: P) {
  const start = await c.get(`/api/oauth/login/${provider}`);
  expect(start.status).toBe(302);
  const auth = await fake.authorize(location(start));
  expect(auth.status).toBe(302);
  return pathOf(auth.location!);
}

async function signIn(c: Client, provider: P) {
  return c.get(await approve(c, provider));
}

describe('provider_a (Twitch)', () => {
  it('start redirects to the authorize URL with exactly the parameters of SPEC.md', async () => {
    const res = await t.client().get('/api/oauth/login/provider_a');
    expect(res.status).toBe(302);
    const url = new URL(location(res));
    expect(url.origin + url.pathname).toBe(`${fake.url}/a/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'client-a',
      redirect_uri: t.config.providers.provider_a.redirectUri,
      response_type: 'code',
      scope: 'user:read:email',
      state: expect.stringMatching(/^[0-9a-f]{32}$/),
      force_verify: 'false',
    });
  });

  it('the action form starts the same flow', async () => {
    const res = await t.client().get('/api/oauth?action=login&provider=provider_a');
    expect(location(res)).toContain(`${fake.url}/a/authorize?`);
  });

  it('a full sign-in lands on / and sets the session user', async () => {
    const c = t.client();
    const res = await signIn(c, 'provider_a');
    expect(res.status).toBe(302);
    expect(location(res)).toBe('/');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const me = await c.get('/api/oauth/me');
    expect(me.body).toEqual({
      user: {
        id: expect.any(Number),
        provider: 'provider_a',
        login: 'twitchdev',
        display_name: 'TwitchDev',
        avatar: 'https://static-cdn.example/a.png',
      },
      is_admin: false,
      is_mod: false,
      banned: false,
    });
  });

  it('the token call posts the five form fields; the user call sends Client-ID and the bearer token', async () => {
    const c = t.client();
    fake.a.tokenRequests.length = 0;
    fake.a.userRequests.length = 0;
    await signIn(c, 'provider_a');
    expect(fake.a.tokenRequests).toEqual([
      {
        client_id: 'client-a',
        client_secret: 'secret-a',
        code: expect.any(String),
        grant_type: 'authorization_code',
        redirect_uri: t.config.providers.provider_a.redirectUri,
      },
    ]);
    const headers = fake.a.userRequests[0]!.headers;
    expect(headers['client-id']).toBe('client-a');
    expect(headers.authorization).toBe(`Bearer ${fake.a.issued.at(-1)}`);
  });

  it('a provider error redirects to /?auth_error=<url-encoded error>', async () => {
    fake.a.failure = 'deny';
    expect(location(await signIn(t.client(), 'provider_a'))).toBe('/?auth_error=access_denied');
    const c = t.client();
    const res = await c.get('/api/oauth/login/provider_a?error=bad%20thing%26more&state=x');
    expect(location(res)).toBe('/?auth_error=bad%20thing%26more');
  });

  it('missing, wrong, replayed and other-browser states are invalid_state', async () => {
    const c = t.client();
    const callback = await approve(c, 'provider_a');
    const url = new URL(callback, t.url);
    const code = url.searchParams.get('code')!;
    const state = url.searchParams.get('state')!;
    const cases = [
      [c, `/api/oauth/login/provider_a?code=${code}`],
      [c, `/api/oauth/login/provider_a?code=${code}&state=${'0'.repeat(32)}`],
      [t.client(), callback], // another browser: no state in its session
    ] as const;
    for (const [client, path] of cases) {
      expect(location(await client.get(path))).toBe('/?auth_error=invalid_state');
    }
    expect(location(await c.get(callback))).toBe('/'); // the right browser, once
    expect(location(await c.get(callback))).toBe('/?auth_error=invalid_state'); // replayed
    expect(state).toMatch(/^[0-9a-f]{32}$/);
  });

  it.each([
    ['token_error', 'provider_a_token_failed_400'],
    ['token_error_empty', 'provider_a_token_failed_400'],
    ['token_hang', 'provider_a_token_failed_0'],
    ['token_no_access_token', 'provider_a_no_token'],
    ['user_error', 'provider_a_user_failed'],
    ['user_hang', 'provider_a_user_failed'],
    ['user_empty', 'provider_a_no_user'],
  ] as const)('%s redirects to /?auth_error=%s and signs nobody in', async (failure, code) => {
    fake.a.failure = failure;
    const c = t.client();
    expect(location(await signIn(c, 'provider_a'))).toBe(`/?auth_error=${code}`);
    expect((await c.get('/api/oauth/me')).body.user).toBeNull();
  });

  it('a wrong client secret is provider_a_token_failed_403', async () => {
    const app = await startApp({ ...fake.env(), PROVIDER_A_CLIENT_SECRET: 'wrong' });
    try {
      const c = app.client();
      const start = await c.get('/api/oauth/login/provider_a');
      const auth = await fake.authorize(location(start));
      expect(location(await c.get(pathOf(auth.location!)))).toBe('/?auth_error=provider_a_token_failed_403');
    } finally {
      await app.close();
    }
  });
});

describe('provider_b (Kick, PKCE)', () => {
  it('start stores (state, provider_b, verifier) and redirects with an S256 challenge of that verifier', async () => {
    const res = await t.client().get('/api/oauth/login/provider_b');
    const url = new URL(location(res));
    const q = Object.fromEntries(url.searchParams);
    expect(url.origin + url.pathname).toBe(`${fake.url}/b/authorize`);
    expect(q).toEqual({
      client_id: 'client-b',
      redirect_uri: t.config.providers.provider_b.redirectUri,
      response_type: 'code',
      scope: 'user:read channel:read',
      state: expect.stringMatching(/^[0-9a-f]{32}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
    });
    const row = await t.db
      .selectFrom('oauth_states')
      .selectAll()
      .where('state', '=', q.state!)
      .executeTakeFirstOrThrow();
    expect(row.provider).toBe('provider_b');
    expect(row.verifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
    expect(challengeOf(row.verifier)).toBe(q.code_challenge);
  });

  it('PKCE: the RFC 7636 appendix B vector, and fresh verifiers of 48 random bytes', () => {
    expect(challengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
    const v = newVerifier();
    expect(v).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
    expect(Buffer.from(v, 'base64url')).toHaveLength(48);
    expect(newVerifier()).not.toBe(v);
  });

  it('a full sign-in: token call with the verifier, user call with Accept json, user upserted, __debug__ written', async () => {
    const c = t.client();
    fake.b.tokenRequests.length = 0;
    const res = await signIn(c, 'provider_b');
    expect(location(res)).toBe('/');
    expect(fake.b.tokenRequests[0]).toEqual({
      grant_type: 'authorization_code',
      client_id: 'client-b',
      redirect_uri: t.config.providers.provider_b.redirectUri,
      code: expect.any(String),
      code_verifier: expect.stringMatching(/^[A-Za-z0-9_-]{64}$/),
      client_secret: 'secret-b',
    });
    expect(fake.b.userRequests.at(-1)!.headers.accept).toBe('application/json');
    expect((await c.get('/api/oauth/me')).body.user).toEqual({
      id: expect.any(Number),
      provider: 'provider_b',
      login: 'KickUser',
      display_name: 'KickUser',
      avatar: 'https://files.kick.example/u.webp',
    });
    const user = await t.db
      .selectFrom('users')
      .selectAll()
      .where('provider', '=', 'provider_b')
      .where('provider_id', '=', '123456')
      .executeTakeFirst();
    expect(user).toBeDefined();
    const debug = await t.db
      .selectFrom('oauth_states')
      .select('verifier')
      .where('state', '=', '__debug__')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(debug.verifier)).toMatchObject({
      granted_scope: 'user:read channel:read',
      user_status: 200,
    });
    expect(JSON.parse(debug.verifier).user_body).toContain('KickUser');
  });

  it('client_secret is sent only when configured', async () => {
    const app = await startApp({ ...fake.env(), PROVIDER_B_CLIENT_SECRET: '' });
    const secret = fake.b.clientSecret;
    fake.b.clientSecret = '';
    try {
      fake.b.tokenRequests.length = 0;
      const c = app.client();
      const start = await c.get('/api/oauth/login/provider_b');
      const auth = await fake.authorize(location(start));
      expect(location(await c.get(pathOf(auth.location!)))).toBe('/');
      expect(fake.b.tokenRequests[0]).not.toHaveProperty('client_secret');
    } finally {
      fake.b.clientSecret = secret;
      await app.close();
    }
  });

  it('missing, wrong, replayed and other-browser states are provider_b_invalid_state', async () => {
    const c = t.client();
    const callback = await approve(c, 'provider_b');
    const code = new URL(callback, t.url).searchParams.get('code')!;
    for (const [client, path] of [
      [c, `/api/oauth/login/provider_b?code=${code}`],
      [c, `/api/oauth/login/provider_b?code=${code}&state=${'f'.repeat(32)}`],
      [c, `/api/oauth/login/provider_b?code=${code}&state=__debug__`],
      [t.client(), callback],
    ] as const) {
      expect(location(await client.get(path))).toBe('/?auth_error=provider_b_invalid_state');
    }
    // the other browser's attempt spent the record: the state is usable once
    expect(location(await c.get(callback))).toBe('/?auth_error=provider_b_invalid_state');
  });

  it('a state record older than 10 minutes is treated as absent, and purged at the next start', async () => {
    const c = t.client();
    const callback = await approve(c, 'provider_b');
    const state = new URL(callback, t.url).searchParams.get('state')!;
    t.clock.advance(10 * MINUTE + 1000);
    expect(location(await c.get(callback))).toBe('/?auth_error=provider_b_invalid_state');

    const c2 = t.client();
    await approve(c2, 'provider_b');
    const old = new URL(await approve(t.client(), 'provider_b'), t.url).searchParams.get('state')!;
    t.clock.advance(11 * MINUTE);
    await t.client().get('/api/oauth/login/provider_b');
    const states = (await t.db.selectFrom('oauth_states').select('state').execute()).map((r) => r.state);
    expect(states).not.toContain(old);
    expect(states).not.toContain(state);
  });

  it.each([
    ['deny', 'access_denied'],
    ['token_error', 'provider_b_token_400_Invalid%20request'],
    ['token_error_description', 'provider_b_token_400_code%20expired'],
    ['token_error_empty', 'provider_b_token_400_see_debug'],
    ['token_hang', 'provider_b_token_0_see_debug'],
    ['token_no_access_token', 'provider_b_no_token'],
    ['user_error', 'provider_b_user_failed_401_see_debug'],
    ['user_hang', 'provider_b_user_failed_0_see_debug'],
    ['user_empty', 'provider_b_no_user'],
  ] as const)('%s redirects to /?auth_error=%s', async (failure, code) => {
    fake.b.failure = failure;
    const c = t.client();
    expect(location(await signIn(c, 'provider_b'))).toBe(`/?auth_error=${code}`);
    expect((await c.get('/api/oauth/me')).body.user).toBeNull();
  });

  it('a PKCE mismatch at the token endpoint shows its error', async () => {
    const c = t.client();
    const callback = await approve(c, 'provider_b');
    const state = new URL(callback, t.url).searchParams.get('state')!;
    await t.db
      .updateTable('oauth_states')
      .set({ verifier: newVerifier() })
      .where('state', '=', state)
      .execute();
    expect(location(await c.get(callback))).toBe('/?auth_error=provider_b_token_400_invalid_grant');
  });

  it('the user answer is parsed through data, a list, and the fallback field names', async () => {
    // a provider answering {data: {id, username, profile_pic}}
    const { createServer } = await import('node:http');
    const alt = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ data: { id: 77, username: 'slugger', profile_pic: 'https://p.example/x.png' } }),
      );
    });
    await new Promise<void>((r) => alt.listen(0, '127.0.0.1', r));
    const port = (alt.address() as { port: number }).port;
    const app2 = await startApp({ ...fake.env(), PROVIDER_B_USER_URL: `http://127.0.0.1:${port}/` });
    try {
      const c = app2.client();
      const start = await c.get('/api/oauth/login/provider_b');
      const auth = await fake.authorize(location(start));
      expect(location(await c.get(pathOf(auth.location!)))).toBe('/');
      expect((await c.get('/api/oauth/me')).body.user).toMatchObject({
        login: 'slugger',
        display_name: 'slugger',
        avatar: 'https://p.example/x.png',
      });
    } finally {
      alt.close();
      await app2.close();
    }
  });
});

describe('both providers', () => {
  it('not configured: provider_a_not_configured and provider_b_not_configured', async () => {
    const app = await startApp({});
    try {
      expect(location(await app.client().get('/api/oauth/login/provider_a'))).toBe(
        '/?auth_error=provider_a_not_configured',
      );
      expect(location(await app.client().get('/api/oauth/login/provider_b'))).toBe(
        '/?auth_error=provider_b_not_configured',
      );
    } finally {
      await app.close();
    }
  });

  it('mix-up: a provider_b state at the provider_a callback is rejected, and the reverse', async () => {
    const c = t.client();
    const bCallback = new URL(await approve(c, 'provider_b'), t.url);
    bCallback.pathname = '/api/oauth/login/provider_a';
    expect(location(await c.get(bCallback.pathname + bCallback.search))).toBe('/?auth_error=invalid_state');
    const c2 = t.client();
    const aCallback = new URL(await approve(c2, 'provider_a'), t.url);
    aCallback.pathname = '/api/oauth/login/provider_b';
    expect(location(await c2.get(aCallback.pathname + aCallback.search))).toBe(
      '/?auth_error=provider_b_invalid_state',
    );
  });

  it('the redirect URI is byte-identical in the authorize and token requests', async () => {
    for (const [provider, state] of [
      ['provider_a', fake.a],
      ['provider_b', fake.b],
    ] as const) {
      state.tokenRequests.length = 0;
      const c = t.client();
      const start = await c.get(`/api/oauth/login/${provider}`);
      const sent = new URL(location(start)).searchParams.get('redirect_uri');
      const auth = await fake.authorize(location(start));
      await c.get(pathOf(auth.location!));
      expect(state.tokenRequests[0]!.redirect_uri).toBe(sent);
      expect(sent).toBe(`${t.config.baseUrl}/api/oauth/login/${provider}`);
    }
  });

  it('callbacks redirect on our own origin, never carrying code or state', async () => {
    for (const provider of ['provider_a', 'provider_b'] as const) {
      for (const failure of ['none', 'user_error', 'deny'] as const) {
        fake.a.failure = failure;
        fake.b.failure = failure;
        const res = await signIn(t.client(), provider);
        const target = location(res);
        expect(target.startsWith('/') && !target.startsWith('//')).toBe(true);
        expect(target).not.toMatch(/code=|state=/);
        expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      }
    }
  });

  it('sign-in issues a new session id; the old one stops working; admin flag kept', async () => {
    const c = await t.admin();
    const start = await c.get('/api/oauth/login/provider_a');
    const before = c.sid;
    const auth = await fake.authorize(location(start));
    await c.get(pathOf(auth.location!));
    expect(c.sid).not.toBe(before);
    expect((await c.get('/api/auth/check')).body).toEqual({ admin: true });
    const stale = t.client();
    stale.cookies.set('sid', before!);
    expect((await stale.get('/api/auth/check')).body).toEqual({ admin: false });
  });

  it('users are keyed by (provider, provider id); signing in again updates the same user', async () => {
    fake.a.nextUser = { id: '555', login: 'samename', display_name: 'Same A' };
    fake.b.nextUser = { id: 555, login: 'samename', display_name: 'samename' };
    try {
      await signIn(t.client(), 'provider_a');
      await signIn(t.client(), 'provider_b');
      const rows = await t.db.selectFrom('users').selectAll().where('provider_id', '=', '555').execute();
      expect(rows.map((r) => r.provider).sort()).toEqual(['provider_a', 'provider_b']);
      const before = rows.find((r) => r.provider === 'provider_a')!;
      t.clock.advance(60_000);
      fake.a.nextUser = {
        id: '555',
        login: 'renamed',
        display_name: 'Renamed',
        avatar: 'https://x.example/new.png',
      };
      await signIn(t.client(), 'provider_a');
      const after = await t.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', before.id)
        .executeTakeFirstOrThrow();
      expect(after).toMatchObject({
        login: 'renamed',
        display_name: 'Renamed',
        avatar: 'https://x.example/new.png',
      });
      expect(after.last_seen > before.last_seen).toBe(true);
      expect(
        (await t.db.selectFrom('users').select('id').where('provider_id', '=', '555').execute()).length,
      ).toBe(2);
    } finally {
      fake.a.nextUser = {
        id: '141981764',
        login: 'twitchdev',
        display_name: 'TwitchDev',
        avatar: 'https://static-cdn.example/a.png',
      };
      fake.b.nextUser = {
        id: 123456,
        login: '',
        display_name: 'KickUser',
        avatar: 'https://files.kick.example/u.webp',
      };
    }
  });

  it('provider tokens never reach an answer, a log line or the database', async () => {
    const logStart = t.logs.length;
    const texts: string[] = [];
    for (const provider of ['provider_a', 'provider_b'] as const) {
      const c = t.client();
      const start = await c.get(`/api/oauth/login/${provider}`);
      const auth = await fake.authorize(location(start));
      const cb = await c.get(pathOf(auth.location!));
      texts.push(start.text, location(start), cb.text, location(cb), JSON.stringify([...cb.headers]));
      texts.push((await c.get('/api/oauth/me')).text);
    }
    const admin = await t.admin();
    texts.push((await admin.get('/api/oauth/debug')).text, (await admin.get('/api/users')).text);
    const tokens = [...fake.a.issued.slice(-1), ...fake.b.issued.slice(-1)];
    expect(tokens).toHaveLength(2);
    const logs = t.logs.slice(logStart).join('\n');
    expect(logs).toContain('signed in');
    expect(logs).not.toMatch(/[?&]code=[0-9a-f]/);
    const tables = ['users', 'sessions', 'oauth_states', 'settings', 'secrets'] as const;
    const dump = JSON.stringify(
      await Promise.all(tables.map((tb) => t.db.selectFrom(tb).selectAll().execute())),
    );
    for (const token of tokens) {
      for (const text of texts) expect(text).not.toContain(token);
      expect(logs).not.toContain(token);
      expect(dump).not.toContain(token);
    }
  });
});

describe('current user, logout and debug', () => {
  it('is_mod is true for a moderator; is_admin reflects the administrator flag', async () => {
    const c = t.client();
    await signIn(c, 'provider_a');
    const me = (await c.get('/api/oauth/me')).body;
    await t.db
      .insertInto('moderators')
      .values({ user_id: me.user.id })
      .onConflict((oc) => oc.doNothing())
      .execute();
    await c.post('/api/auth/login', { password: ADMIN_PASSWORD });
    expect((await c.get('/api/oauth?action=me')).body).toMatchObject({
      is_mod: true,
      is_admin: true,
      banned: false,
    });
    await t.db.deleteFrom('moderators').where('user_id', '=', me.user.id).execute();
  });

  it('a banned user is removed from the session and reported banned once', async () => {
    fake.a.nextUser = { id: 'banned-1', login: 'baddie', display_name: 'Baddie' };
    const c = t.client();
    await signIn(c, 'provider_a');
    fake.a.nextUser = {
      id: '141981764',
      login: 'twitchdev',
      display_name: 'TwitchDev',
      avatar: 'https://static-cdn.example/a.png',
    };
    await t.db.updateTable('users').set({ banned: 1 }).where('provider_id', '=', 'banned-1').execute();
    expect((await c.get('/api/oauth/me')).body).toEqual({
      user: null,
      is_admin: false,
      is_mod: false,
      banned: true,
    });
    expect((await c.get('/api/oauth/me')).body).toEqual({
      user: null,
      is_admin: false,
      is_mod: false,
      banned: false,
    });
  });

  it('an anonymous visitor gets user null and all flags false, with no session created', async () => {
    const res = await t.client().get('/api/oauth/me');
    expect(res.body).toEqual({ user: null, is_admin: false, is_mod: false, banned: false });
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('logout removes only the user and redirects to /', async () => {
    const c = await t.admin();
    await signIn(c, 'provider_a');
    for (const path of ['/api/oauth/logout', '/api/oauth?action=logout']) {
      const res = await c.get(path);
      expect(res.status).toBe(302);
      expect(location(res)).toBe('/');
      expect((await c.get('/api/oauth/me')).body).toMatchObject({ user: null, is_admin: true });
    }
  });

  it('debug answers only an administrator, with every field of SPEC.md', async () => {
    expect((await t.client().get('/api/oauth/debug')).status).toBe(401);
    expect((await t.client().get('/api/oauth?action=debug')).body).toEqual({ error: 'Unauthorized' });
    for (let i = 0; i < 6; i++) await t.client().get('/api/oauth/login/provider_b');
    const admin = await t.admin();
    await signIn(admin, 'provider_b');
    const res = await admin.get('/api/oauth/debug');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      session_id: expect.stringMatching(/^[0-9a-f]{16}$/),
      oauth_user: expect.objectContaining({ provider: 'provider_b' }),
      provider_b_debug: expect.objectContaining({ user_status: 200 }),
      provider_a_redirect: t.config.providers.provider_a.redirectUri,
      provider_b_redirect: t.config.providers.provider_b.redirectUri,
      provider_a_client_set: true,
      provider_b_client_set: true,
      https_detected: false,
      recent_db_states: expect.any(Array),
    });
    const states = res.body.recent_db_states;
    expect(states).toHaveLength(5);
    expect(
      states.every(
        (s: any) => s.state !== '__debug__' && s.provider === 'provider_b' && Object.keys(s).length === 3,
      ),
    ).toBe(true);
    const times = states.map((s: any) => s.created_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(res.text).not.toContain(admin.sid!);
    expect(
      (await admin.get('/api/oauth/debug', { headers: { 'x-forwarded-proto': 'https' } })).body
        .https_detected,
    ).toBe(true);
  });

  it('OAUTH_DEBUG_PUBLIC=true opens debug to anyone; provider_b_redirect is empty without a client id', async () => {
    const app = await startApp({ OAUTH_DEBUG_PUBLIC: 'true' });
    try {
      const res = await app.client().get('/api/oauth/debug');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        session_id: '',
        oauth_user: null,
        provider_b_debug: null,
        provider_b_redirect: '',
        provider_a_client_set: false,
        recent_db_states: [],
      });
    } finally {
      await app.close();
    }
  });

  it.each([
    ['/api/oauth/login/provider_c'],
    ['/api/oauth?action=login&provider=nope'],
    ['/api/oauth?action=login'],
    ['/api/oauth?action=whoami'],
    ['/api/oauth'],
    ['/api/oauth/other'],
  ])('%s is 404 Not found', async (path) => {
    const res = await t.client().get(path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not found' });
  });

  it('sign-in starts are limited to 20 a minute per address', async () => {
    const app = await startApp({ ...fake.env(), RATE_LIMIT: 'on' });
    try {
      const statuses = [];
      for (let i = 0; i < 21; i++)
        statuses.push((await app.client().get('/api/oauth/login/provider_a')).status);
      expect(statuses.filter((s) => s === 302)).toHaveLength(20);
      expect(statuses[20]).toBe(429);
    } finally {
      await app.close();
    }
  });
});

describe('a signed-in user in the rest of the service', () => {
  it('appears in /api/users, joins a team by login, comments under their name and sees the team view', async () => {
    fake.b.nextUser = { id: 9001, login: '', display_name: 'TeamKicker' };
    const c = t.client();
    await signIn(c, 'provider_b');
    fake.b.nextUser = {
      id: 123456,
      login: '',
      display_name: 'KickUser',
      avatar: 'https://files.kick.example/u.webp',
    };
    const admin = await t.admin();
    const users = (await admin.get('/api/users?q=teamkicker')).body;
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ provider: 'provider_b', provider_id: '9001', login: 'TeamKicker' });

    const sid = await t.streamer('Team Target');
    const group = await admin.post('/api/rater_groups', { name: 'Kick Team', streamer_id: sid });
    const added = await admin.post('/api/rater_groups?members=1', {
      group_id: group.body.id,
      login: 'teamkicker',
      provider: 'provider_b',
    });
    expect(added.body).toEqual({ ok: true, display_name: 'TeamKicker', role: 'rater' });

    const comment = await c.post('/api/comments', { streamer_id: sid, body: 'rating soon', author: 'x' });
    expect(comment.body).toMatchObject({ author: 'TeamKicker', user_provider: 'provider_b' });
    const list = (await c.get('/api/streamers')).body;
    expect(list.some((s: any) => s.id === sid && s.evaluated === false)).toBe(true);
    expect((await c.get('/api/rater_groups?my=1')).body).toEqual([
      { id: group.body.id, name: 'Kick Team', streamer_id: sid },
    ]);
  });
});
