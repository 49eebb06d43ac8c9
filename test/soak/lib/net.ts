import { createServer, type Server, type Socket, connect } from 'node:net';

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
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
