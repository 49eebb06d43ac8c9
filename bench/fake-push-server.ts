/**
 * A fake Web Push service for issue 41's row, run as its own process (forked, like
 * stream-holder.ts): a real HTTP server on 127.0.0.1 that answers `POST /push/<n>` as FCM or
 * Mozilla's autopush do, after about as long (FAKE_PUSH_DELAY_MS, 50 by default): 201 for a
 * message it takes; 410 for every 50th endpoint (a device that unsubscribed); one 429 with
 * `Retry-After: 1` to every 1,000th endpoint's first message (the service must wait and try
 * again). It checks each request's shape (`Authorization: vapid t=..., k=...`,
 * `Content-Encoding: aes128gcm`, `TTL`, a body) and counts per endpoint; the parent asks for
 * the counts over IPC.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PushStats } from './protocol.ts';

const DELAY_MS = Number(process.env.FAKE_PUSH_DELAY_MS ?? 50);
const taken = new Map<number, number>();
const gone = new Set<number>();
const limited = new Set<number>();
const stats: PushStats = {
  requests: 0,
  delivered: 0,
  twice: 0,
  gone: 0,
  rateLimited: 0,
  badShape: 0,
  firstAt: 0,
  lastAt: 0,
};

const server = createServer((req, res) => {
  let size = 0;
  req.on('data', (chunk: Buffer) => (size += chunk.length));
  req.on('end', () => {
    const now = Date.now();
    stats.requests++;
    stats.firstAt ||= now;
    const n = Number(/^\/push\/(\d+)$/.exec(req.url ?? '')?.[1] ?? NaN);
    const shaped =
      /^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]+$/.test(req.headers.authorization ?? '') &&
      req.headers['content-encoding'] === 'aes128gcm' &&
      /^\d+$/.test(String(req.headers.ttl ?? '')) &&
      size > 0;
    const answer = (status: number, headers: Record<string, string> = {}) =>
      setTimeout(() => {
        stats.lastAt = Date.now();
        res.writeHead(status, headers).end();
      }, DELAY_MS);
    if (req.method !== 'POST' || !Number.isInteger(n)) return answer(404);
    if (!shaped) {
      stats.badShape++;
      return answer(400);
    }
    if (n % 50 === 0) {
      if (!gone.has(n)) stats.gone++;
      gone.add(n);
      return answer(410);
    }
    if (n % 1000 === 3 && !limited.has(n)) {
      limited.add(n);
      stats.rateLimited++;
      return answer(429, { 'retry-after': '1' });
    }
    const times = (taken.get(n) ?? 0) + 1;
    taken.set(n, times);
    if (times === 1) stats.delivered++;
    if (times === 2) stats.twice++;
    answer(201);
  });
});

server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
process.on('message', (message: 'stats' | 'reset') => {
  if (message === 'reset') {
    taken.clear();
    gone.clear();
    limited.clear();
    for (const key of Object.keys(stats) as (keyof PushStats)[]) stats[key] = 0;
  }
  process.send?.({ ...stats });
});
process.on('disconnect', () => process.exit(0));
