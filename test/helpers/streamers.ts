import { type TestApp, useApp } from './app.ts';
import type { Client } from './client.ts';

/** All seven scores set to `v`. */
export const R = (v: number) => ({ s: v, g: v, a: v, v: v, n: v, ns: v, o: v });

/** The app for one test file, an administrator, and the streamer calls the tests share. */
export async function useStreamers() {
  const t = await useApp();
  const admin = await t.admin();
  const all = async (c: Client = admin) => (await c.get('/api/streamers?all=1')).body as any[];
  const find = async (id: number) => (await all()).find((s) => s.id === id);
  const rate = (id: number, body: unknown, c: Client = admin) => c.put(`/api/streamers?id=${id}`, body);
  return { t, admin, all, find, rate };
}

/**
 * A streamer on provider A's channel `channel` (unique to the test) and the signed-in user who
 * speaks for it (src/catalogue/speaks-for.ts), as a verified streamer.
 */
export async function spokenFor(t: TestApp, admin: Client, channel: string) {
  const made = await admin.post('/api/streamers?admin=1', {
    name: `Verified ${channel}`,
    provider_a: channel,
  });
  const id = made.body.id as number;
  const user = await t.user({ provider: 'provider_a', login: channel });
  return { id, user, speaker: await t.signedIn(user) };
}
