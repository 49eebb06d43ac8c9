import { afterAll, beforeAll, expect, it } from 'vitest';
import { fillDemo } from '../src/cli/demo.ts';
import { startApp, type TestApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';

/** Bug 1 of issue 11: the stand-in's sample users are the demo data's users, no duplicates. */
let t: TestApp;
beforeAll(async () => {
  t = await startApp({ DEV_PROVIDERS: 'true' });
  await fillDemo(t.database, new Date());
});
afterAll(() => t.close());

const local = (u: string) => {
  const url = new URL(u, 'http://x');
  return url.pathname + url.search;
};

async function signInAs(c: Client, provider: string, login: string) {
  const start = await c.get(`/api/oauth/login/${provider}`);
  const authorize = new URL(start.headers.get('location') ?? '');
  const page = await c.get(local(authorize.toString()));
  expect(page.text).toContain(`value="${login}"`);
  authorize.searchParams.set('login', login);
  const approved = await c.get(local(authorize.toString()));
  await c.get(local(approved.headers.get('location') ?? ''));
  return (await c.get('/api/oauth/me')).body;
}

it('signing in as a demo user on the stand-in is that user, with its role and name', async () => {
  const before = await t.db.selectFrom('users').select('id').execute();
  const max = await signInAs(t.client(), 'provider_a', 'mod_max');
  expect(max).toMatchObject({ is_mod: true, user: { login: 'mod_max', display_name: 'ModMax' } });
  const karel = await signInAs(t.client(), 'provider_b', 'kick_karel');
  expect(karel.user).toMatchObject({ id: 2, display_name: 'KickKarel' });
  const rita = await signInAs(t.client(), 'provider_a', 'rater_rita');
  expect(rita.user.id).toBe(before.find((u) => u.id === rita.user.id)?.id);
  const after = await t.db.selectFrom('users').select('id').execute();
  expect(after.length).toBe(before.length);
});

it("the demo's rated Kick streamers keep a few evenings of this week by hand (Twitch's come from the stand-in)", async () => {
  const list = (await t.client().get('/api/streamers')).body as {
    id: number;
    platform: string;
    next_stream: string | null;
  }[];
  const kick = list.filter((s) => s.platform === 'provider_b');
  expect(kick.length).toBeGreaterThan(0);
  const upcoming = (await t.client().get('/api/schedule?days=7')).body as { streamer_id: number }[];
  expect(new Set(upcoming.map((u) => u.streamer_id))).toEqual(new Set(kick.map((s) => s.id)));
  for (const s of kick) {
    expect(s.next_stream).toEqual(expect.any(String));
    expect((await t.client().get(`/api/streamers?id=${s.id}&schedule=1`)).body.source).toBe('manual');
  }
});
