import { describe, expect, it } from 'vitest';
import { challengeOf, newVerifier } from '../src/signin/pkce.ts';
import { MINUTE } from '../src/lib/clock.ts';
import { startApp, useApp } from './helpers/app.ts';

import { location, pathOf, useSignIn } from './helpers/signin.ts';

const { fake, t, approve, signIn } = await useSignIn();
/** An app whose calls to the providers give up after 300 ms: the hanging provider's rows. */
const quick = await useApp({ ...fake.env(), PROVIDER_TIMEOUT_MS: '300' });

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
    const c = (failure.endsWith('_hang') ? quick : t).client();
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

  it('login and display name keep no control, bidi or invisible character; with nothing visible, the id names the account (issue 45)', async () => {
    const before = fake.b.nextUser;
    // Kick's answer here carries one `name`, the login and the display name at once.
    const me = async (display_name: string) => {
      fake.b.nextUser = { ...before, display_name };
      const c = t.client();
      expect(location(await signIn(c, 'provider_b'))).toBe('/');
      const { login, display_name: shown } = (await c.get('/api/oauth/me')).body.user;
      return [login, shown];
    };
    try {
      // C0 and C1 controls break a feed's XML; a bidi override shows `nimda` as "admin".
      expect(await me('\u0001Ev\u0007il\u0085 \u202Enimda\u200B ')).toEqual(['Evil nimda', 'Evil nimda']);
      expect(await me('\u3164\u115F\u2800\u0000 \u202E')).toEqual(['', '123456']);
    } finally {
      fake.b.nextUser = before;
    }
  });
});
