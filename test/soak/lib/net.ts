import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket, connect } from 'node:net';

/**
 * A TCP port on 127.0.0.1 that nothing listens on right now, chosen below the kernel's
 * ephemeral range: an outgoing connection (to PostgreSQL, to a fake) takes its source port from
 * that range, and could take a port between this check and the child's listen (a CI run's
 * EADDRINUSE). Another worker can still pick the same number in that moment: a caller that
 * spawns a server retries on EADDRINUSE (Service.start). It starts above 10080, the highest of
 * the ports the Fetch standard blocks, whose every request fetch() refuses as a "bad port" (a
 * CI run, stop 82).
 */
export async function freePort(): Promise<number> {
  const below = ephemeralStart();
  for (let tries = 0; tries < 50; tries++) {
    const port = FIRST_PORT + Math.floor(Math.random() * (below - FIRST_PORT));
    if (await listens(port)) return port;
  }
  return listens(0);
}

/** Above the Fetch standard's blocked ports (the last is 10080). */
const FIRST_PORT = 10_081;

/** The first port of the kernel's ephemeral range (Linux's default 32768 elsewhere). */
function ephemeralStart(): number {
  try {
    const first = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    return Number.isInteger(first) && first > 11_000 ? first : 32_768;
  } catch {
    return 32_768;
  }
}

/** Listens on `port` (0: any) and closes again: the port, or 0 when it was taken. */
function listens(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(0) : reject(err)));
    srv.listen(port, '127.0.0.1', () => {
      const { port: bound } = srv.address() as { port: number };
      srv.close(() => resolve(bound));
    });
  });
}

/**
 * A TCP relay on 127.0.0.1 in front of a real server (PostgreSQL), which a test can cut:
 * `down()` resets every relayed connection and refuses new ones, as a database restart looks
 * to its clients, without touching the real server that other tests share.
 */
export class Relay {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  static async create(target: { host: string; port: number }): Promise<Relay> {
    return new Relay(await freePort(), target);
  }

  get url(): string {
    return `127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  /** Resets every relayed connection and stops listening. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.resetAndDestroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export interface RawAnswer {
  /** 0 when the server closed the connection without an answer. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The whole answer as received, for messages. */
  raw: string;
}

/**
 * Sends bytes over a fresh TCP connection and reads the answer until the server closes the
 * connection (requests send `Connection: close`) or the time runs out.
 */
export async function rawRequest(
  port: number,
  bytes: Buffer | string,
  timeoutMs = 30_000,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(
          `no end of answer within ${timeoutMs} ms: ${JSON.stringify(Buffer.concat(chunks).toString('latin1').slice(0, 200))}`,
        ),
      );
    }, timeoutMs);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseAnswer(Buffer.concat(chunks).toString('latin1')));
    });
    socket.write(bytes);
  });
}

function parseAnswer(raw: string): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = end === -1 ? '' : raw.slice(end + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = unchunk(body);
  return { status, headers, body: Buffer.from(body, 'latin1').toString('utf8'), raw };
}

function unchunk(body: string): string {
  let out = '';
  let rest = body;
  for (;;) {
    const eol = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, eol), 16);
    if (eol === -1 || !size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}
