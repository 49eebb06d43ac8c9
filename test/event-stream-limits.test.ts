import { afterAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../src/lib/clock.ts';
import { networkOf, STREAM_LIMITS, streamsWithin } from '../src/events/streams.ts';
import { startApp } from './helpers/app.ts';
import { openStream, type SseStream } from './helpers/sse.ts';

/**
 * Issue 45 attack item 4: event streams could hold every connection (300 streams from 15
 * addresses outlived the idle timeout). Now: an overall cap below the connection limit (503
 * past it, the rest of the site answers), a lifetime after which the server ends a stream and
 * the reconnection resumes, and per-network limits above the per-address one.
 */
const t = await startApp({}, { connections: { total: 30 } });
const open: SseStream[] = [];
afterAll(async () => {
  open.forEach((s) => s.close());
  await t.close();
});
const from = async (address: string, path = '/api/events', headers: Record<string, string> = {}) => {
  const s = await openStream(t.url, path, headers, address);
  open.push(s);
  return s;
};
const closeAll = async () => {
  open.splice(0).forEach((s) => s.close());
  await expect.poll(() => t.app.eventStreams.size).toBe(0);
};

describe('limits of the event streams', () => {
  it('streams take half the connections at most: past it a stream is 503 with Retry-After, the site answers', async () => {
    const cap = streamsWithin(30);
    expect(cap).toBe(15);
    const addresses = Array.from({ length: cap }, (_, i) => `127.0.0.${2 + (i % 3)}`);
    const streams = await Promise.all(addresses.map((a) => from(a)));
    expect(streams.map((s) => s.status)).toEqual(Array(cap).fill(200));
    const refused = await from('127.0.0.9');
    expect([refused.status, JSON.parse(refused.body)]).toEqual([
      503,
      { error: 'Service unavailable', code: 'service_unavailable' },
    ]);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(t.app.eventStreams.size).toBe(cap);
    // Everything else still answers.
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${t.url}/api/streamers`)).status).toBe(200);
    // A stream that ends frees its place.
    streams[0]!.close();
    await expect.poll(() => t.app.eventStreams.size).toBe(cap - 1);
    expect((await from('127.0.0.9')).status).toBe(200);
    await closeAll();
  });

  it('a stream ends after its lifetime of the app clock; its reconnection resumes with what it missed', async () => {
    const sid = await t.streamer('Long Watched', { s: 6 });
    const elsewhere = await t.streamer('Elsewhere', { s: 6 });
    const s = await from('127.0.0.2', `/api/events?streamer_id=${sid}`);
    expect(s.status).toBe(200);
    t.clock.advance(STREAM_LIMITS.lifetimeMs - MINUTE);
    expect(t.app.eventStreams.size).toBe(1);
    // An event of another streamer: not this stream's, but the log moves on.
    const other = await t
      .client()
      .post('/api/comments', { streamer_id: elsewhere, body: 'not for this stream' });
    expect(other.status).toBe(201);
    // The tail has read it (and every event before it).
    const { last } = await t.db
      .selectFrom('event_log')
      .select((eb) => eb.fn.max('id').as('last'))
      .executeTakeFirstOrThrow();
    await expect.poll(() => t.app.eventTail.cursor).toBe(Number(last));
    const head = t.app.eventTail.cursor;
    t.clock.advance(MINUTE);
    await s.ended;
    expect(t.app.eventStreams.size).toBe(0);
    // The stream was told where the log stood: its reconnection starts there, not at a reset.
    expect(s.lastEventId).toBe(String(head));
    const missed = await t.client().post('/api/comments', { streamer_id: sid, body: 'while reconnecting' });
    expect(missed.status).toBe(201);
    const again = await from('127.0.0.2', `/api/events?streamer_id=${sid}`, {
      'last-event-id': s.lastEventId,
    });
    // The replay comes first, before anything could wait for it.
    await expect.poll(() => again.events.map((e) => e.event)).toEqual(['comment']);
    expect(again.events[0]?.data).toEqual({ id: missed.body.id, streamer_id: sid });
    await closeAll();
  });
});

describe('per-network limits', () => {
  it('a network (IPv4 /24, IPv6 /56) holds more than one address but not without bound', async () => {
    expect(networkOf('203.0.113.77')).toBe('203.0.113.0/24');
    expect(networkOf('2001:db8:1:2::/64')).toBe('2001:db8:1:0000::/56');
    expect(networkOf('2001:db8:1:ab2::/64')).toBe('2001:db8:1:0a00::/56');
    expect(networkOf('2001:db8:1:ff2::/64')).toBe(networkOf('2001:db8:1:fff::/64'));
    expect(networkOf('2001:db8:1:100::/64')).not.toBe(networkOf('2001:db8:1:200::/64'));
    expect(STREAM_LIMITS.perNetwork).toBeGreaterThan(STREAM_LIMITS.perAddress);

    const many = await startApp({}, { connections: { total: 2 * STREAM_LIMITS.perNetwork + 20 } });
    const streams: SseStream[] = [];
    try {
      const take = async (address: string) => {
        const s = await openStream(many.url, '/api/events', {}, address);
        streams.push(s);
        return s;
      };
      // A busy NAT: one address gets its whole share.
      const perAddress = STREAM_LIMITS.perAddress;
      const addresses = Math.ceil(STREAM_LIMITS.perNetwork / perAddress);
      for (let a = 0; a < addresses; a++) {
        const want = Math.min(perAddress, STREAM_LIMITS.perNetwork - a * perAddress);
        const got = await Promise.all(Array.from({ length: want }, () => take(`127.0.5.${10 + a}`)));
        expect(got.map((s) => s.status)).toEqual(Array(want).fill(200));
      }
      // The network is full: another address of it gets 429, an address of another network 200.
      const refused = await take('127.0.5.200');
      expect([refused.status, JSON.parse(refused.body).code]).toEqual([429, 'too_many_requests']);
      expect(refused.headers['retry-after']).toBeDefined();
      expect((await take('127.0.6.10')).status).toBe(200);
    } finally {
      streams.forEach((s) => s.close());
      await many.close();
    }
  });
});
