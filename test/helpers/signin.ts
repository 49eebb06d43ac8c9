import { afterAll, afterEach, expect } from 'vitest';
import { startApp, type TestApp } from './app.ts';
import type { Client } from './client.ts';
import { type FakeProviders, startFakeProviders } from './fake-providers.ts';

export type P = 'provider_a' | 'provider_b';

export const location = (res: { headers: Headers }) => res.headers.get('location') ?? '';
export const pathOf = (u: string) => {
  const url = new URL(u);
  return url.pathname + url.search;
};

export interface SignInSetup {
  fake: FakeProviders;
  t: TestApp;
  /** Starts a sign-in, lets the fake provider approve, and returns the callback path. */
  approve: (c: Client, provider: P) => Promise<string>;
  /** A whole sign-in: start, approve, callback. */
  signIn: (c: Client, provider: P) => Promise<Awaited<ReturnType<Client['get']>>>;
}

/**
 * Fake Twitch and Kick on 127.0.0.1 and the app pointed at them, for one test file; each
 * test starts with the fakes answering normally and the clock at now.
 */
export async function useSignIn(): Promise<SignInSetup> {
  const fake = await startFakeProviders();
  // A hang guard, not a speed limit (a hanging provider's test starts an app with a short one).
  const t = await startApp({ ...fake.env(), PROVIDER_TIMEOUT_MS: '60000' });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  afterEach(() => {
    fake.a.failure = 'none';
    fake.b.failure = 'none';
    t.clock.offset = 0;
  });
  const approve = async (c: Client, provider: P) => {
    const start = await c.get(`/api/oauth/login/${provider}`);
    expect(start.status).toBe(302);
    const auth = await fake.authorize(location(start));
    expect(auth.status).toBe(302);
    return pathOf(auth.location!);
  };
  return { fake, t, approve, signIn: async (c, provider) => c.get(await approve(c, provider)) };
}
