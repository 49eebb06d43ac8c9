/**
 * Starts a ceiling (ceiling-server.ts) as its own process. Every ceiling answers GET
 * /healthz once it is ready, so its start is timed the same way as the service's.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { compileChild } from './build.ts';
import { ServerProcess } from '../test/helpers/service.ts';
import type { CeilingMode } from './protocol.ts';

let script: string | undefined;

export interface CeilingOptions {
  /** static: the file whose bytes are the answer. */
  file?: string;
  /** static: the file holds brotli bytes. */
  brotli?: boolean;
  /** static: the ETag to send and to answer 304 for. */
  etag?: string;
  /** static: send the bytes as a Buffer read once (not as a string), as a precomputed answer would be. */
  buffer?: boolean;
  /** static: the Content-Type (JSON by default). */
  contentType?: string;
  /** health, insert, group-commit: `sqlite:<file>` or `postgres://...`. */
  databaseUrl?: string;
  /** static, ok: headers sent with every answer besides the ceiling's own (the service's: `answerHeaders`). */
  headers?: Record<string, string>;
}

/**
 * The headers the ceiling cannot know: those of the service's own answer (security, caching,
 * Vary), so that a ceiling answers header for header what the service answers. Not those the
 * ceiling writes itself (type, ETag, coding, length) nor those Node.js writes (date, the
 * connection's).
 */
const OWN = new Set([
  'content-type',
  'etag',
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'date',
  'connection',
  'keep-alive',
]);

export function answerHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!OWN.has(name) && typeof value === 'string') out[name] = value;
  }
  return out;
}

export async function startCeiling(mode: CeilingMode, opts: CeilingOptions = {}): Promise<ServerProcess> {
  script ??= compileChild('ceiling-server');
  const env: Record<string, string> = { CEILING_MODE: mode };
  if (opts.file) env.CEILING_FILE = opts.file;
  if (opts.brotli) env.CEILING_ENCODING = 'br';
  if (opts.etag) env.CEILING_ETAG = opts.etag;
  if (opts.contentType) env.CEILING_TYPE = opts.contentType;
  if (opts.buffer) env.CEILING_BUFFER = '1';
  if (opts.databaseUrl) env.CEILING_DATABASE_URL = opts.databaseUrl;
  if (opts.headers) env.CEILING_HEADERS = JSON.stringify(opts.headers);
  const ceiling = await ServerProcess.spawnProcess({ name: `ceiling (${mode})`, args: [script], env });
  try {
    await ceiling.ready();
  } catch (err) {
    await ceiling.kill9();
    throw err;
  }
  return ceiling;
}

/** A strong ETag for precomputed bytes, as a static file server would make one. */
export function etagOf(bytes: Buffer): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"`;
}
