import { describe, expect, it } from 'vitest';
import { returnPath } from '../src/signin/routes.ts';
import { location, pathOf, useSignIn } from './helpers/signin.ts';

const { fake, t } = await useSignIn();

/** Issue 11 bug 4: sign-in returns to the page it started from, same-origin paths only. */
describe('the sign-in return path', () => {
  it('keeps page paths', () => {
    for (const p of ['/', '/s/3', '/s/3-zlaty-kun', '/admin/teams', '/suggest?x=1', '/?q=a+b&sort=g,d'])
      expect(returnPath(p)).toBe(p);
  });
  it('refuses other hosts, schemes, API paths and odd characters', () => {
    for (const p of [
      undefined,
      '',
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '/api/oauth/logout',
      '/s/1<script>',
      '/s/1 x',
      `/${'a'.repeat(250)}`,
    ])
      expect(returnPath(p)).toBeNull();
  });
  it("normalises first (dot segments, backslashes, encoded dots and slashes), then takes only the page's addresses", () => {
    for (const p of [
      '/./api/oauth/logout',
      '/s/3/../../api/oauth/logout',
      '/%2e/api/oauth/logout',
      '/..//evil.example',
      '/.//evil.example',
      '/%2e%2e//evil.example',
      '/%2E%2E/%2Fevil.example',
      '/%2f%2fevil.example',
      '/s/%2F%2Fevil.example',
      '\\evil.example',
      '\\\\evil.example/x',
      '/\\/evil.example',
      '/healthz',
      '/metrics',
      '/feed.xml',
      '/assets/index.js',
      '/dev/stand-in',
      '/s/x',
      '/admin/Teams',
      '/%',
    ])
      expect(returnPath(p), p).toBeNull();
    for (const [p, to] of [
      ['/./s/3', '/s/3'],
      ['/admin/../suggest?x=1', '/suggest?x=1'],
      ['/s/3-zlaty-kun', '/s/3-zlaty-kun'],
      ['/your-data', '/your-data'],
    ])
      expect(returnPath(p), p).toBe(to);
  });
});

/** Issue 17 bug 10: sign-out and a refused sign-in land on the page the user was on. */
describe('back to the page', () => {
  const start = async (c: ReturnType<typeof t.client>, back: string) => {
    const res = await c.get(`/api/oauth/login/provider_a?return=${encodeURIComponent(back)}`);
    expect(res.status).toBe(302);
    return location(res);
  };

  it('a refused sign-in goes back to the page it started from, with the code', async () => {
    fake.a.failure = 'deny';
    const c = t.client();
    const auth = await fake.authorize(await start(c, '/s/3-alpha'));
    expect(location(await c.get(pathOf(auth.location!)))).toBe('/s/3-alpha?auth_error=access_denied');
    // A page with a query of its own keeps it.
    const again = await fake.authorize(await start(c, '/?sort=g'));
    expect(location(await c.get(pathOf(again.location!)))).toBe('/?sort=g&auth_error=access_denied');
  });

  it('a failure after the provider approved goes back too; without a page it is /', async () => {
    fake.a.failure = 'token_error';
    const c = t.client();
    const auth = await fake.authorize(await start(c, '/suggest'));
    expect(location(await c.get(pathOf(auth.location!)))).toBe(
      '/suggest?auth_error=provider_a_token_failed_400',
    );
    const bare = t.client();
    const plain = await bare.get('/api/oauth/login/provider_a');
    const back = await fake.authorize(location(plain));
    expect(location(await bare.get(pathOf(back.location!)))).toBe('/?auth_error=provider_a_token_failed_400');
  });

  it('the page is used once: a later failure without one is /', async () => {
    fake.a.failure = 'deny';
    const c = t.client();
    const auth = await fake.authorize(await start(c, '/s/4'));
    await c.get(pathOf(auth.location!));
    expect(location(await c.get('/api/oauth/login/provider_a?error=access_denied&state=x'))).toBe(
      '/?auth_error=access_denied',
    );
  });

  it('sign-out goes back to the page given, other addresses to /', async () => {
    const c = t.client();
    for (const [path, to] of [
      ['/api/oauth/logout?return=%2Fs%2F3-alpha', '/s/3-alpha'],
      ['/api/oauth?action=logout&return=%2F%3Fq%3Da%2Bb', '/?q=a+b'],
      ['/api/oauth/logout?return=%2F%2Fevil.example', '/'],
      ['/api/oauth/logout?return=https%3A%2F%2Fevil.example', '/'],
      ['/api/oauth/logout?return=%2F..%2F%2Fevil.example', '/'],
      ['/api/oauth/logout?return=%2F%252e%252e%2F%2Fevil.example', '/'],
      ['/api/oauth/logout?return=%5C%5Cevil.example', '/'],
      ['/api/oauth/logout?return=%2F.%2Fapi%2Foauth%2Flogout', '/'],
      ['/api/oauth/logout?return=%2F.%2Fs%2F3-alpha', '/s/3-alpha'],
      ['/api/oauth/logout', '/'],
    ] as const) {
      const res = await c.get(path);
      expect([res.status, location(res)]).toEqual([302, to]);
    }
  });
});
