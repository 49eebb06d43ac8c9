import { useApp } from './app.ts';
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
