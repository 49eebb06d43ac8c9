import type { IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { http } from '../lib/node-http.ts';
import { headerOf, send } from '../lib/outbound.ts';

/**
 * Calls to the providers' live-status APIs. Every way a call can fail becomes a SyncError
 * with a message an operator can act on, and never with a token in it: the poller logs the
 * message and stores it as the provider's `last_error`.
 */

export type FailureKind =
  'network' | 'timeout' | 'unauthorized' | 'rate_limited' | 'status' | 'html' | 'not_json' | 'wrong_data';

export class SyncError extends Error {
  constructor(
    message: string,
    readonly kind: FailureKind,
    /** For rate limits: when the provider may be called again (ms since the epoch). */
    readonly retryAt: number | null = null,
    /** For `status`: the HTTP status the provider answered (a schedule's 404 means none). */
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'SyncError';
  }
}

export interface JsonAnswer {
  json: Record<string, unknown>;
  headers: IncomingHttpHeaders;
}

export interface Call {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  form?: Record<string, string>;
}

/**
 * An idle kept connection to a provider is closed after this long (sooner if the provider's
 * `Keep-Alive` header says so): a sync round's calls share a few connections instead of a TLS
 * handshake each (605 calls in the busiest minute at 10,000 streamers).
 */
export const PROVIDER_IDLE_MS = 15_000;

/** Connections kept to the providers' APIs: the live statuses and four schedule reads at once fit. */
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 8, timeout: PROVIDER_IDLE_MS }),
  https: new HttpsAgent({ keepAlive: true, maxSockets: 8, timeout: PROVIDER_IDLE_MS }),
};

/** A provider's answer is read up to this size (a page of 100 live streams is some 100 KB). */
const MAX_ANSWER = 8 * 1024 * 1024;

/** The longest a provider's rate-limit headers can make the sync wait (a wrong header must not stop it for days). */
const MAX_WAIT_MS = 15 * 60_000;

/**
 * When a rate-limited provider may be called again: `Ratelimit-Reset` (Unix time),
 * `Retry-After` (seconds), else in a minute; never later than MAX_WAIT_MS from now.
 */
export function retryAt(headers: IncomingHttpHeaders, now: number): number {
  const reset = Number(headerOf(headers, 'ratelimit-reset'));
  const after = Number(headerOf(headers, 'retry-after'));
  const at =
    headerOf(headers, 'ratelimit-reset') && Number.isFinite(reset) && reset > 0
      ? reset * 1000
      : headerOf(headers, 'retry-after') && Number.isFinite(after) && after >= 0
        ? now + after * 1000
        : now + 60_000;
  return Math.min(at, now + MAX_WAIT_MS);
}

const looksLikeHtml = (contentType: string, text: string) =>
  contentType.includes('html') || /^\s*</.test(text);

/** One call that answers the provider's JSON object with status 200, or throws a SyncError. */
export async function callJson(
  url: string,
  call: Call,
  timeoutMs: number,
  now: () => number,
): Promise<JsonAnswer> {
  const res = await send(url, {
    method: call.method,
    headers: {
      accept: 'application/json',
      ...call.headers,
      ...(call.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: call.form ? new URLSearchParams(call.form).toString() : null,
    agents,
    // Reads and token requests: a kept connection the provider closed meanwhile is tried again.
    repeatable: true,
    timeoutMs,
    maxAnswer: MAX_ANSWER,
  });
  if (res.kind === 'no-answer') {
    if (res.timedOut)
      throw new SyncError(`no answer within ${timeoutMs} ms (PROVIDER_TIMEOUT_MS)`, 'timeout');
    throw new SyncError(`cannot reach the API (${res.message})`, 'network');
  }
  const text = res.body;
  if (res.status === 429) {
    const at = retryAt(res.headers, now());
    throw new SyncError(
      `rate limited (429); waiting until ${new Date(at).toISOString()}`,
      'rate_limited',
      at,
    );
  }
  if (looksLikeHtml(headerOf(res.headers, 'content-type') ?? '', text)) {
    throw new SyncError(
      `answered ${res.status} with an HTML page instead of JSON: usually a Cloudflare or firewall block of this server's address`,
      'html',
    );
  }
  if (res.status === 401) throw new SyncError('the app token was refused (401)', 'unauthorized');
  if (res.status !== 200) throw new SyncError(`answered ${res.status}`, 'status', null, res.status);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SyncError('answered 200 with something that is not JSON', 'not_json');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new SyncError('answered 200 with JSON that is not an object', 'not_json');
  }
  return { json: { ...parsed }, headers: res.headers };
}

/** A list member of an answer, or a SyncError: an answer without it is not the provider's. */
export function dataList(json: Record<string, unknown>): unknown[] {
  const data = json.data;
  if (!Array.isArray(data)) throw new SyncError('answered JSON without a "data" list', 'wrong_data');
  return data;
}

/** A member of an object, or undefined. */
export function member(obj: unknown, key: string): unknown {
  return obj && typeof obj === 'object' && key in obj ? Reflect.get(obj, key) : undefined;
}

export const textOf = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A timestamp in the house format (ISO 8601 UTC with milliseconds), or null. */
export function timestampOf(v: unknown): string | null {
  if (typeof v !== 'string' || v === '') return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export function countOf(v: unknown): number {
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) && n > 0 ? Math.trunc(n) : 0;
}
