/**
 * Issue 30, item 2: time limits on a request's head and body, and limits on the connections a
 * client may hold. Raw sockets, as an attacker's would be; the app's limits are made small
 * (its options), so that each limit shows by an event: the server closes the connection.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp } from './helpers/app.ts';

const slow = await startApp(
  {},
  { connections: { headersTimeout: 300, requestTimeout: 600, checkInterval: 50 } },
);
const few = await startApp({}, { connections: { perAddress: 4, total: 100 } });
// Room is made at 7 open connections (http/connections.ts `makeRoomAt`).
const crowded = await startApp({}, { connections: { perAddress: 4, total: 8 } });
const proxied = await startApp({ TRUST_PROXY: '127.0.0.1' }, { connections: { perAddress: 2, total: 5 } });
// Kept-alive connections wait 72 s and heads 10 s: only the idle sweep closes before that.
const idling = await startApp({}, { connections: { idleTimeout: 200 } });
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all([slow.close(), few.close(), crowded.close(), proxied.close(), idling.close()]);
});

const sockets: Socket[] = [];

/** A connected raw socket and everything it receives until the server closes it. */
async function open(
  url: string,
  localAddress?: string,
): Promise<{ socket: Socket; closed: Promise<string> }> {
  const { hostname, port } = new URL(url);
  const socket = connect({ port: Number(port), host: hostname, ...(localAddress ? { localAddress } : {}) });
  sockets.push(socket);
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('close', () => reject(new Error('closed before connecting')));
  });
  return { socket, closed };
}

/** Writes `text` one character at a time, a character every 20 ms, until the socket closes. */
function trickle(socket: Socket, text: string): void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= text.length) clearInterval(timer);
    else socket.write(text[i++]!);
  }, 20);
  socket.once('close', () => clearInterval(timer));
}

/** A GET on a kept-alive raw socket: resolves with the status line of its answer. */
function get(socket: Socket, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const onData = (d: Buffer) => {
      answer += d.toString();
      if (answer.includes('\r\n')) {
        socket.off('data', onData);
        resolve(answer.split('\r\n')[0]!);
      }
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error('closed without an answer')));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  });
}

describe('time limits', () => {
  it('a body trickled a byte at a time is cut off at the request timeout with 408', async () => {
    const { socket, closed } = await open(slow.url);
    socket.write(
      'POST /api/comments HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n',
    );
    trickle(socket, '{"streamer_id":1,"body":"' + 'x'.repeat(4000));
    expect(await closed).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('a head trickled a header at a time is cut off at the headers timeout', async () => {
    const { socket, closed } = await open(slow.url);
    socket.write('GET /api/streamers HTTP/1.1\r\n');
    trickle(socket, 'X-Slow: 1\r\n'.repeat(500));
    expect(await closed).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('connections that send nothing are closed at the headers timeout, every one of them', async () => {
    const idle = await Promise.all(Array.from({ length: 20 }, () => open(slow.url)));
    const answers = await Promise.all(idle.map((c) => c.closed));
    expect(answers.every((a) => a === '' || a.startsWith('HTTP/1.1 408 '))).toBe(true);
  });
});

describe('idle connections', () => {
  it('a connection on which nothing moves is closed by the idle sweep, after its answers', async () => {
    const { socket, closed } = await open(idling.url);
    expect(await get(socket, '/healthz')).toBe('HTTP/1.1 200 OK');
    expect(await closed).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('connections per client and in total', () => {
  it("a client's connections past its share are closed at once; a closed one frees its place", async () => {
    const held = await Promise.all(Array.from({ length: 4 }, () => open(few.url)));
    // Every held connection works...
    for (const { socket } of held) expect(await get(socket, '/healthz')).toBe('HTTP/1.1 200 OK');
    // ...and one more from the same address is closed without an answer.
    const extra = await open(few.url).catch(() => null);
    if (extra) expect(await extra.closed).toBe('');
    held[0]!.socket.destroy();
    await held[0]!.closed;
    const again = await open(few.url);
    expect(await get(again.socket, '/healthz')).toBe('HTTP/1.1 200 OK');
    for (const c of [...held, again]) c.socket.destroy();
  });

  it('clients holding every place with kept-alive connections: a new visitor makes room and is answered; event streams stay', async () => {
    // Two clients (two addresses) hold 7 of the 8 places: kept-alive after an answer, and one event stream.
    const held = [
      ...(await Promise.all(Array.from({ length: 4 }, () => open(crowded.url, '127.0.0.2')))),
      ...(await Promise.all(Array.from({ length: 3 }, () => open(crowded.url, '127.0.0.3')))),
    ];
    const [stream, ...kept] = held as [(typeof held)[0], ...typeof held];
    // The server has taken all seven before any answer (the seventh makes room: none waits yet).
    const accepted = () =>
      new Promise<number>((resolve) => crowded.app.server.getConnections((_err, n) => resolve(n)));
    await expect.poll(accepted).toBe(7);
    expect(await get(stream.socket, '/api/events')).toBe('HTTP/1.1 200 OK');
    for (const { socket } of kept) expect(await get(socket, '/healthz')).toBe('HTTP/1.1 200 OK');
    // Two visitors in turn: each is answered (the second found no place before).
    for (const address of ['127.0.0.1', '127.0.0.4']) {
      const visitor = await open(crowded.url, address);
      expect(await get(visitor.socket, '/healthz')).toBe('HTTP/1.1 200 OK');
    }
    // The kept-alive ones made the room; the stream is still open.
    await Promise.all(kept.map((c) => c.closed));
    expect(stream.socket.destroyed).toBe(false);
    for (const c of held) c.socket.destroy();
  });

  it('a trusted proxy carries many visitors: only the total limits it', async () => {
    const held = await Promise.all(Array.from({ length: 5 }, () => open(proxied.url)));
    for (const { socket } of held) expect(await get(socket, '/healthz')).toBe('HTTP/1.1 200 OK');
    const extra = await open(proxied.url).catch(() => null);
    if (extra) expect(await extra.closed).toBe('');
    for (const c of held) c.socket.destroy();
  });
});
