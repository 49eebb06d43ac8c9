import { describe, expect, it } from 'vitest';

import { startApp, useApp } from './helpers/app.ts';

import { location, pathOf, useSignIn } from './helpers/signin.ts';

const { fake, t, approve, signIn } = await useSignIn();
/** An app whose calls to the providers give up after 300 ms: the hanging provider's rows. */
const quick = await useApp({ ...fake.env(), PROVIDER_TIMEOUT_MS: '300' });

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
      speaks_for: [],
      timeout_until: null,
      email: null,
      email_pending: false,
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
    const c = (failure.endsWith('_hang') ? quick : t).client();
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

  it('a display name keeps no control, bidi or invisible character, and one with nothing visible is the login (issue 45)', async () => {
    const before = fake.a.nextUser;
    const me = async (display_name: string) => {
      fake.a.nextUser = { ...before, display_name };
      const c = t.client();
      expect(location(await signIn(c, 'provider_a'))).toBe('/');
      return (await c.get('/api/oauth/me')).body.user.display_name as string;
    };
    try {
      // C0 and C1 controls break a feed's XML; a bidi override shows `nimda` as "admin".
      expect(await me('\u0001Ev\u0007il\u0085 \u202Enimda\u200B ')).toBe('Evil nimda');
      expect(await me('\u3164\u115F\u2800\u0000 \u202E')).toBe('twitchdev');
    } finally {
      fake.a.nextUser = before;
    }
  });
});
