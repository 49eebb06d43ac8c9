import { afterAll, expect, it } from 'vitest';
import { startApp } from './helpers/app.ts';
import { openStream, type SseStream } from './helpers/sse.ts';

/**
 * Issue 27's abuse list: many open event streams from many addresses must not take the
 * service down. Streams take half the connection limit at most (2,048 at the defaults, 30
 * here), whatever the number of addresses, and load shedding refuses new ones as it refuses
 * any request.
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

it('streams from many addresses take half the connection total at most: the rest of the site still connects', async () => {
  // 15 streams from three addresses (half of the 30 connections), all taken (issue 45 item 4).
  const addresses = [...Array<string>(10).fill('127.0.0.2'), ...Array<string>(5).fill('127.0.0.3')];
  const streams = await Promise.all(addresses.map(from));
  expect(streams.map((s) => s.status)).toEqual(Array(15).fill(200));
  expect(t.app.eventStreams.size).toBe(15);
  // A 16th stream from a fourth address is refused; a plain request is answered.
  expect((await from('127.0.0.4')).status).toBe(503);
  expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
  expect(t.app.eventStreams.size).toBe(15);
  // A stream that ends frees its place.
  streams[0]!.close();
  await expect.poll(() => t.app.eventStreams.size).toBe(14);
  expect((await from('127.0.0.4')).status).toBe(200);
  open.splice(0).forEach((s) => s.close());
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
