import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package) that keeps every message it
 * accepts, as sent, and parses it for the tests: headers (unfolded, by lower-case name) and the
 * parts of a multipart body, decoded. Tests script the next answers: `temp` (451, a 4xx: the
 * sender tries again), `perm` (550: final). It takes any login.
 */

export interface Part {
  headers: Record<string, string>;
  contentType: string;
  body: string;
}

export interface Received {
  from: string;
  to: string[];
  raw: string;
  headers: Record<string, string>;
  /** The Content-Type without its parameters (`multipart/alternative`). */
  contentType: string;
  parts: Part[];
  text: string;
  html: string;
}

export type Answer = 'temp' | 'perm';

export interface FakeSmtp {
  /** SMTP_URL for the service. */
  url: string;
  port: number;
  messages: Received[];
  /** Messages to one address. */
  to(address: string): Received[];
  /** The next answers to DATA, before messages are accepted again. */
  script(answers: Answer[]): void;
  /** Transactions refused by a script. */
  refused: number;
  /** Connections opened to it. */
  connections: number;
  reset(): void;
  close(): Promise<void>;
}

function splitHead(raw: string): { headers: Record<string, string>; body: string } {
  const cut = raw.indexOf('\r\n\r\n');
  const head = cut < 0 ? raw : raw.slice(0, cut);
  const body = cut < 0 ? '' : raw.slice(cut + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function decode(body: string, encoding: string | undefined): string {
  const enc = (encoding ?? '7bit').toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') {
    const bytes = body
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, h: string) => `%${h}`)
      .replace(/%(?![0-9A-F]{2})/gi, '%25');
    try {
      return decodeURIComponent(bytes);
    } catch {
      return bytes;
    }
  }
  return body;
}

/** A header's encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`) as text. */
export function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decode(text.replace(/_/g, ' '), 'quoted-printable'),
    );
}

export function parseMessage(raw: string): Omit<Received, 'from' | 'to'> {
  const { headers, body } = splitHead(raw);
  const type = headers['content-type'] ?? 'text/plain';
  const contentType = type.split(';')[0]!.trim().toLowerCase();
  const parts: Part[] = [];
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (contentType.startsWith('multipart/') && boundary) {
    const chunks = body.split(`--${boundary}`).slice(1);
    for (const chunk of chunks) {
      if (chunk.startsWith('--')) break;
      const part = splitHead(chunk.replace(/^\r\n/, ''));
      parts.push({
        headers: part.headers,
        contentType: (part.headers['content-type'] ?? 'text/plain').split(';')[0]!.trim().toLowerCase(),
        body: decode(part.body.replace(/\r\n$/, ''), part.headers['content-transfer-encoding']),
      });
    }
  } else {
    parts.push({ headers, contentType, body: decode(body, headers['content-transfer-encoding']) });
  }
  return {
    raw,
    headers,
    contentType,
    parts,
    text: parts.find((p) => p.contentType === 'text/plain')?.body ?? '',
    html: parts.find((p) => p.contentType === 'text/html')?.body ?? '',
  };
}

export async function startFakeSmtp(): Promise<FakeSmtp> {
  const messages: Received[] = [];
  let answers: Answer[] = [];
  const fake = {} as FakeSmtp;
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (_auth, _session, done) => done(null, { user: 'any' }),
    onConnect(_session, done) {
      fake.connections++;
      done();
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const answer = answers.shift();
        if (answer) {
          fake.refused++;
          const err = Object.assign(
            new Error(answer === 'temp' ? 'Try again later' : 'Mailbox unavailable'),
            {
              responseCode: answer === 'temp' ? 451 : 550,
            },
          );
          return done(err);
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          ...parseMessage(raw),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  Object.assign(fake, {
    url: `smtp://user:pass@127.0.0.1:${port}`,
    port,
    messages,
    refused: 0,
    connections: 0,
    to: (address: string) => messages.filter((m) => m.to.includes(address)),
    script: (next: Answer[]) => {
      answers = [...next];
    },
    reset: () => {
      messages.length = 0;
      answers = [];
      fake.refused = 0;
      fake.connections = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
  return fake;
}
