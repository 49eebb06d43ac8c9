import { afterAll, expect, it } from 'vitest';
import { startApp } from './helpers/app.ts';
import { openStream, type SseStream } from './helpers/sse.ts';

/**
 * Issue 27's abuse list: many open event streams from many addresses must not take the
 * service down. Each stream is a connection, so the total connection limit (2,048 at the
 * defaults, 30 here) bounds them whatever the number of addresses, and load shedding refuses
 * new ones as it refuses any request.
 */
const t = await startApp({ MAX_EVENT_LOOP_DELAY_MS: '100' }, { connections: { total: 30 } });
const open: SseStream[] = [];
afterAll(async () => {
  open.forEach((s) => s.close());
  await t.close();
});
const from = async (address: string) => {
  const s = await openStream(t.url, '/api/events', {}, address);
  open.push(s);
  return s;
};

it('streams from many addresses count toward the connection total: past it nothing more connects', async () => {
  // 30 streams from three addresses (20, the per-address limit, and 10), all taken.
  const addresses = [...Array<string>(20).fill('127.0.0.2'), ...Array<string>(10).fill('127.0.0.3')];
  const streams = await Promise.all(addresses.map(from));
  expect(streams.map((s) => s.status)).toEqual(Array(30).fill(200));
  expect(t.app.eventStreams.size).toBe(30);
  // A 31st stream from a fourth address, and a plain request, find no place.
  await expect(from('127.0.0.4')).rejects.toThrow();
  await expect(fetch(`${t.url}/healthz`)).rejects.toThrow();
  expect(t.app.eventStreams.size).toBe(30);
  // A stream that ends frees its place.
  streams[0]!.close();
  await expect.poll(() => t.app.eventStreams.size).toBe(29);
  await expect.poll(async () => (await fetch(`${t.url}/healthz`).catch(() => null))?.status).toBe(200);
  streams.slice(1).forEach((s) => s.close());
  await expect.poll(() => t.app.eventStreams.size).toBe(0);
});

it('an overloaded service refuses a new stream with 503 and keeps the open ones', async () => {
  const kept = await from('127.0.0.5');
  t.loopDelay.sample(150);
  t.loopDelay.sample(150);
  expect(t.app.overloaded()).toBe(true);
  const refused = await openStream(t.url, '/api/events', {}, '127.0.0.6');
  expect([refused.status, JSON.parse(refused.body).code]).toEqual([503, 'service_unavailable']);
  expect(t.app.eventStreams.size).toBe(1);
  t.loopDelay.sample(5);
  expect((await from('127.0.0.6')).status).toBe(200);
  expect(kept.status).toBe(200);
  expect(t.app.eventStreams.size).toBe(2);
});
