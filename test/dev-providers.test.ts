import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp({ DEV_PROVIDERS: 'true', LIVE_SYNC_SECONDS: '3600' });
});
afterAll(() => t.close());

const location = (res: { headers: Headers }) => res.headers.get('location') ?? '';
const local = (u: string) => {
  const url = new URL(u);
  return url.pathname + url.search;
};

async function devSignIn(c: Client, provider: string, extra: Record<string, string>) {
  const start = await c.get(`/api/oauth/login/${provider}`);
  const authorize = new URL(location(start));
  expect(authorize.pathname).toBe(`/dev/oauth/${provider}/authorize`);
  const page = await c.get(local(authorize.toString()));
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toContain('text/html');
  for (const [k, v] of Object.entries(extra)) authorize.searchParams.set(k, v);
  const approved = await c.get(local(authorize.toString()));
  expect(approved.status).toBe(302);
  return c.get(local(location(approved)));
}

describe('development identity provider (DEV_PROVIDERS=true)', () => {
  it.each(['provider_a', 'provider_b'])(
    'signs in through %s end to end, with the real flow',
    async (provider) => {
      const c = t.client();
      const done = await devSignIn(c, provider, { login: 'Alice', display_name: 'Alice A.' });
      expect(location(done)).toBe('/');
      const me = (await c.get('/api/oauth/me')).body;
      expect(me.user).toMatchObject({ provider, display_name: 'Alice A.' });
    },
  );

  it('the page form works as a browser sends it: a sample button with the empty text field, or a typed login', async () => {
    const forms: Record<string, string>[] = [
      { login: 'alice', typed_login: '', display_name: '' },
      { typed_login: 'Carol_2', display_name: '' },
    ];
    for (const extra of forms) {
      const c = t.client();
      expect(location(await devSignIn(c, 'provider_a', extra))).toBe('/');
      expect((await c.get('/api/oauth/me')).body.user.display_name).toBe(extra.login ?? 'carol_2');
    }
  });

  it('the same login signs in as the same user again', async () => {
    const c1 = t.client();
    await devSignIn(c1, 'provider_a', { login: 'bob' });
    const c2 = t.client();
    await devSignIn(c2, 'provider_a', { login: 'bob' });
    const id1 = (await c1.get('/api/oauth/me')).body.user.id;
    expect((await c2.get('/api/oauth/me')).body.user.id).toBe(id1);
  });

  it.each([
    ['provider_a', 'Stand In Twitch', 'standintwitch'],
    ['provider_b', 'Stand In Kick', 'standinkick'],
  ] as const)(
    '%s: a streamer who signs in with its channel becomes verified, also once live sync learnt its id (issue 45, week 15)',
    async (platform, name, channel) => {
      const admin = await t.admin();
      const res = await admin.post('/api/streamers?admin=1', { name, platform });
      expect(res.status).toBe(201);
      const id = res.body.id as number;
      expect((await admin.put(`/api/streamers?id=${id}`, { r: { s: 5 } })).status).toBe(200);
      // Live sync asks the stand-in's live API first and learns the channel's account id.
      expect(await t.app.liveSync.runOnce()).toBe(true);
      const learnt = await t.db
        .selectFrom('streamers')
        .select('account_id')
        .where('id', '=', id)
        .executeTakeFirst();
      expect(learnt?.account_id).not.toBeNull();
      const c = t.client();
      // The sample button sends the login as typed, in any letter case.
      await devSignIn(c, platform, { login: channel.toUpperCase() });
      expect((await c.get('/api/oauth/me')).body.speaks_for).toEqual([id]);
      const item = (await t.client().get(`/api/streamers?id=${id}`)).body;
      expect(item).toMatchObject({ verified: true });
    },
  );

  it('Deny comes back as access_denied', async () => {
    const done = await devSignIn(t.client(), 'provider_a', { deny: '1' });
    expect(location(done)).toBe('/?auth_error=access_denied');
  });

  it('refuses a foreign redirect_uri (no open redirect) and provider_b without PKCE', async () => {
    const res = await t
      .client()
      .get(
        '/dev/oauth/provider_a/authorize?client_id=dev-provider_a&redirect_uri=https%3A%2F%2Fevil.example%2F&login=x&state=s',
      );
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    const b = await t
      .client()
      .get(
        `/dev/oauth/provider_b/authorize?client_id=dev-provider_b&redirect_uri=${encodeURIComponent(t.config.providers.provider_b.redirectUri)}&login=x&state=s`,
      );
    expect(b.status).toBe(400);
  });

  it('user text on the page is escaped', async () => {
    const res = await t
      .client()
      .get('/dev/oauth/provider_a/authorize?state=%22%3E%3Cscript%3Ex%3C%2Fscript%3E');
    expect(res.text).not.toContain('<script>x');
  });

  it('is not served without DEV_PROVIDERS', async () => {
    const app = await startApp({});
    try {
      expect((await app.client().get('/dev/oauth/provider_a/authorize')).status).toBe(404);
    } finally {
      await app.close();
    }
  });
});
