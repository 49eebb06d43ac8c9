import { describe, expect, it } from 'vitest';

import { startApp } from './helpers/app.ts';

import { location, pathOf, useSignIn } from './helpers/signin.ts';

const { fake, t, approve, signIn } = await useSignIn();

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
