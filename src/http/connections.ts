import type { Server, ServerOptions } from 'node:http';
import { BlockList, isIPv6, type Socket } from 'node:net';
import { clientNetwork } from '../plugins/guest-tag.ts';

/**
 * How long a client may take and how many connections it may hold (issue 30, item 2;
 * docs/decisions.md "Connections"). Without these a client that sends its headers and then
 * trickles the body, or opens connections and sends nothing, holds them for good.
 */
export interface ConnectionPolicy {
  /** The request's head must be in within this many ms of its start; a connection that sends nothing is closed after it too. */
  headersTimeout: number;
  /** The whole request, head and body, within this many ms: a trickled body is cut off (408). */
  requestTimeout: number;
  /** A kept-alive connection waiting for its next request is closed after this many ms. */
  keepAliveTimeout: number;
  /**
   * A connection on which nothing moves either way for this many ms is closed (a client that
   * stopped reading); found by a sweep every quarter of it, so up to a quarter later.
   */
  idleTimeout: number;
  /** How often Node looks for requests past their time, in ms: the two timeouts above are this late at most. */
  checkInterval: number;
  /** Open connections per client (an IPv6 client by its /64), except from TRUST_PROXY's addresses. */
  perAddress: number;
  /** Open connections in all; past it a new connection is closed at once. */
  total: number;
}

export const CONNECTION_POLICY: Readonly<ConnectionPolicy> = Object.freeze({
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 72_000,
  idleTimeout: 120_000,
  checkInterval: 1_000,
  perAddress: 256,
  total: 2_048,
});

/**
 * Fastify's server options that carry the timeouts. `http` reaches Node's `createServer`, so
 * they hold from the server's creation: on Node.js 20 a `requestTimeout` set later, below
 * the `headersTimeout`, is not enforced, and the check interval (30 s by default) is read
 * only when the server is created. The other two are what Fastify sets on the server again
 * after creating it (cache/early.ts does as Fastify does): the same values. The idle timeout
 * is not Fastify's `connectionTimeout` (Node's `socket.setTimeout`, a timer re-armed on every
 * read and write, which cost a third of a small answer's time): limitConnections sweeps.
 */
export function serverOptions(policy: ConnectionPolicy, http: ServerOptions = {}) {
  return {
    http: {
      ...http,
      headersTimeout: policy.headersTimeout,
      requestTimeout: policy.requestTimeout,
      keepAliveTimeout: policy.keepAliveTimeout,
      connectionsCheckingInterval: policy.checkInterval,
    } satisfies ServerOptions,
    requestTimeout: policy.requestTimeout,
    keepAliveTimeout: policy.keepAliveTimeout,
  };
}

/** TRUST_PROXY's addresses and ranges, to be told apart from clients. */
function proxyList(trusted: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of trusted) {
    const [address = '', bits] = entry.split('/');
    const family = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return list;
}

/**
 * The open connections at which kept-alive ones waiting for their next request are closed
 * (Node's `closeIdleConnections`), so that the total is never reached by clients that only
 * hold places: a 32nd of the total below it.
 */
export const makeRoomAt = (total: number): number => total - Math.max(1, Math.floor(total / 32));

/**
 * Limits the open connections of a server: `total` in all (Node's `maxConnections`, which
 * closes a connection past it before anything reads from it), and `perAddress` per client;
 * a connection past its client's share is closed at once. A trusted proxy (TRUST_PROXY)
 * carries many visitors on its connections, so it counts only toward the total; the proxy
 * limits its own clients (docs/deploy.md). Connections idle for `idleTimeout` are closed.
 *
 * Near the total (`makeRoomAt`), each new connection closes the kept-alive connections that
 * wait between requests: a few addresses holding their shares with a request now and then
 * (8 addresses of 256 fill 2,048) would otherwise keep every other visitor out. A browser
 * opens a closed one again at its next request; answers in progress and event streams stay.
 * A trusted proxy's new connections make no room: it keeps its own pool to the service.
 */
export function limitConnections(server: Server, policy: ConnectionPolicy, trusted: readonly string[]): void {
  server.maxConnections = policy.total;
  closeIdle(server, policy.idleTimeout);
  const proxies = proxyList(trusted);
  const open = new Map<string, number>();
  const roomAt = makeRoomAt(policy.total);
  let all = 0;
  server.on('connection', (socket) => {
    all++;
    socket.once('close', () => all--);
    const address = (socket.remoteAddress ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
    if (address === '' || proxies.check(address, isIPv6(address) ? 'ipv6' : 'ipv4')) return;
    if (all >= roomAt) server.closeIdleConnections();
    const client = clientNetwork(address);
    const count = open.get(client) ?? 0;
    if (count >= policy.perAddress) {
      socket.destroy();
      return;
    }
    open.set(client, count + 1);
    socket.once('close', () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left > 0) open.set(client, left);
      else open.delete(client);
    });
  });
}

/**
 * Closes the connections on which no byte moved either way for `idleMs`: every quarter of it
 * a sweep compares each connection's byte counts with the last sweep's. One timer for the
 * server instead of one per connection re-armed on every read and write.
 */
function closeIdle(server: Server, idleMs: number): void {
  const moved = new Map<Socket, { bytes: number; still: number }>();
  server.on('connection', (socket: Socket) => {
    moved.set(socket, { bytes: 0, still: 0 });
    socket.once('close', () => moved.delete(socket));
  });
  const sweeps = 4;
  const sweep = setInterval(() => {
    for (const [socket, seen] of moved) {
      const bytes = socket.bytesRead + socket.bytesWritten;
      if (bytes !== seen.bytes) {
        seen.bytes = bytes;
        seen.still = 0;
      } else if (++seen.still >= sweeps) socket.destroy();
    }
  }, idleMs / sweeps);
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
}
