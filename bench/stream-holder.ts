/**
 * The holder of open event streams, run as its own process (like load-worker.ts): it opens
 * streams on the service from many local addresses (127.0.1.2, 127.0.1.3, ...: Linux routes
 * all of 127/8 to the loopback, and the service takes 20 streams an address and 100 a network
 * at its defaults), and tells when each stream received the `comment` event of a given id.
 */
import http from 'node:http';
import type { HolderRequest, HolderAnswer } from './protocol.ts';

const responses: http.IncomingMessage[] = [];
/** Arrival times (performance.timeOrigin + now, ms) of each comment id's event. */
const arrivals = new Map<number, number[]>();
const waiting = new Map<number, () => void>();

const now = () => performance.timeOrigin + performance.now();

function heard(id: number): void {
  const times = arrivals.get(id) ?? [];
  times.push(now());
  arrivals.set(id, times);
  if (times.length >= responses.length) waiting.get(id)?.();
}

function read(res: http.IncomingMessage): void {
  let buffer = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      // Each event is `id:`, `event:` and `data:` lines (the id first).
      if (!block.split('\n').includes('event: comment')) continue;
      const data = JSON.parse(block.slice(block.indexOf('data: ') + 6)) as { id: number };
      heard(data.id);
    }
  });
}

function openOne(url: URL, localAddress: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(
      url,
      { agent: false, localAddress, headers: { accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode === 200) {
          responses.push(res);
          read(res);
        } else res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', () => resolve(0));
  });
}

async function open(request: Extract<HolderRequest, { open: unknown }>['open']): Promise<HolderAnswer> {
  const url = new URL(request.url);
  const statuses: Record<string, number> = {};
  for (let first = 0; first < request.count; first += request.perAddress) {
    // As many addresses in each /24 as its network takes streams: 127.0.1.2 to .6, 127.0.2.2, ...
    const k = first / request.perAddress;
    const perNet = Math.max(1, Math.floor(request.perNetwork / request.perAddress));
    const address = `127.0.${1 + Math.floor(k / perNet)}.${2 + (k % perNet)}`;
    const batch = Array.from({ length: Math.min(request.perAddress, request.count - first) }, () =>
      openOne(url, address),
    );
    for (const status of await Promise.all(batch)) statuses[status] = (statuses[status] ?? 0) + 1;
  }
  return { opened: responses.length, statuses };
}

function collect(id: number, timeoutMs: number): Promise<HolderAnswer> {
  return new Promise((resolve) => {
    const done = () => {
      waiting.delete(id);
      clearTimeout(timer);
      resolve({ times: arrivals.get(id) ?? [], streams: responses.length });
    };
    const timer = setTimeout(done, timeoutMs);
    waiting.set(id, done);
    if ((arrivals.get(id)?.length ?? 0) >= responses.length) done();
  });
}

process.on('message', (message: HolderRequest) => {
  const answer = 'open' in message ? open(message.open) : collect(message.collect, message.timeoutMs);
  void answer.then((a) => process.send?.(a));
});
process.on('disconnect', () => process.exit(0));
