import { Agent, createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { send } from '../src/lib/outbound.ts';
import { callJson } from '../src/sync/http.ts';

/**
 * The service's one client for calls out (src/lib/outbound.ts), against a real server on
 * 127.0.0.1: what the other side receives, and every way a call can end.
 */
let server: Server;
let base = '';
let received: { headers: IncomingHttpHeaders; body: string } | null = null;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received = { headers: req.headers, body };
      if (req.url === '/hang') return; // never answers
      if (req.url === '/slow') {
        // The status and part of the body, then nothing.
        res.writeHead(200, { 'content-length': '100' });
        return void res.write('part');
      }
      if (req.url === '/long') return res.end('x'.repeat(100_000));
      res.writeHead(201, { 'x-one': 'a', 'set-cookie': ['b=1', 'c=2'] });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('a call out', () => {
  it('sends its body with its length (Node sets it), not chunked, and gets the answer whole', async () => {
    const result = await send(`${base}/form`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1&b=%C5%BE',
      timeoutMs: 10_000,
      maxAnswer: 1024,
    });
    expect(received?.body).toBe('a=1&b=%C5%BE');
    expect(received?.headers['content-length']).toBe('12');
    expect(received?.headers['transfer-encoding']).toBeUndefined();
    expect(result).toMatchObject({ kind: 'answer', status: 201, body: '{"ok":true}' });
    if (result.kind === 'answer') expect(result.headers['x-one']).toBe('a');
  });

  it('keeps an answer only up to its limit', async () => {
    const result = await send(`${base}/long`, { method: 'GET', timeoutMs: 10_000, maxAnswer: 1000 });
    expect(result.kind).toBe('answer');
    if (result.kind === 'answer') expect(result.body.length).toBeLessThanOrEqual(1000);
  });

  it('that left and got no answer in time is told apart from one that never left', async () => {
    // A status that came in time is the answer (Discord acted), even if the rest never comes.
    const slow = await send(`${base}/slow`, { method: 'POST', body: '{}', timeoutMs: 100, maxAnswer: 1024 });
    expect(slow).toMatchObject({ kind: 'answer', status: 200, body: 'part' });
    const late = await send(`${base}/hang`, { method: 'POST', body: '{}', timeoutMs: 100, maxAnswer: 1024 });
    expect(late).toMatchObject({
      kind: 'no-answer',
      sent: true,
      timedOut: true,
      error: 'no answer within 100 ms',
    });
    // An address where nothing listens: a server's port, after it closed.
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const closed = `http://127.0.0.1:${(gone.address() as AddressInfo).port}/`;
    await new Promise((resolve) => gone.close(resolve));
    const none = await send(closed, { method: 'POST', body: '{}', timeoutMs: 10_000, maxAnswer: 1024 });
    expect(none).toMatchObject({ kind: 'no-answer', sent: false, timedOut: false });
  });

  it('that Node.js refuses to make (a header no request can carry) is no answer, and leaves no timer', async () => {
    // The app's clock does not drive this timer: fake ones, moved past the limit by hand.
    vi.useFakeTimers();
    try {
      const headers = { authorization: 'Bearer garbled\r\nX-Injected: 1' };
      const refused = await send(`${base}/`, { method: 'GET', headers, timeoutMs: 1000, maxAnswer: 1024 });
      expect(refused).toMatchObject({
        kind: 'no-answer',
        sent: false,
        timedOut: false,
        error: 'ERR_INVALID_CHAR',
      });
      // Its time limit was the process's end: the timer threw where nothing could catch it.
      expect(vi.getTimerCount()).toBe(0);
      expect(() => vi.advanceTimersByTime(1000)).not.toThrow();
    } finally {
      vi.useRealTimers();
    }
  });
});

/**
 * A server that keeps connections open; with `dropSecond` it drops a connection as its second
 * request arrives: the other side closing a kept connection as a call goes out on it.
 */
async function provider(dropSecond: boolean) {
  let connections = 0;
  const seen = new WeakMap<object, number>();
  const server = createServer((req, res) => {
    const n = (seen.get(req.socket) ?? 0) + 1;
    seen.set(req.socket, n);
    if (dropSecond && n === 2) return void req.socket.destroy();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":[]}');
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    connections: () => connections,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('kept connections', () => {
  it('a repeatable call the other side dropped on a kept connection is made again once; others are not', async () => {
    const other = await provider(true);
    const agents = { http: new Agent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
    try {
      const call = { method: 'GET' as const, agents, timeoutMs: 10_000, maxAnswer: 1024 };
      expect(await send(other.url, { ...call, repeatable: true })).toMatchObject({
        kind: 'answer',
        status: 200,
      });
      expect(await send(other.url, { ...call, repeatable: true })).toMatchObject({
        kind: 'answer',
        status: 200,
      });
      expect(other.connections()).toBe(2);
      // A call that must not happen twice (Discord, push) reports what came of its one attempt.
      expect(await send(other.url, call)).toMatchObject({ kind: 'answer', status: 200 });
      expect(await send(other.url, call)).toMatchObject({ kind: 'no-answer', sent: true, timedOut: false });
    } finally {
      agents.http.destroy();
      await other.close();
    }
  });

  it("live sync's calls share a kept connection, and one the provider dropped is made again", async () => {
    const steady = await provider(false);
    const dropping = await provider(true);
    try {
      for (let i = 0; i < 3; i++) {
        expect((await callJson(steady.url, { method: 'GET' }, 10_000, () => 0)).json).toEqual({ data: [] });
      }
      expect(steady.connections()).toBe(1);
      for (let i = 0; i < 2; i++) {
        expect((await callJson(dropping.url, { method: 'GET' }, 10_000, () => 0)).json).toEqual({ data: [] });
      }
    } finally {
      await steady.close();
      await dropping.close();
    }
  });
});
