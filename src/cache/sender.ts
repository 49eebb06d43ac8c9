import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Answer, Compressed } from './answer.ts';

/**
 * How a kept answer (answer.ts) is sent: the HTTP caching rules, written once, for the routes
 * (`sendAnswer`) and for the answers before routing (`writeAnswer`, early.ts), which thereby
 * answer header for header and byte for byte alike.
 *
 * - `If-None-Match` (RFC 9110 13.1.2): `*`, or a list of entity tags compared weakly (`W/"x"`
 *   matches `"x"`): 304 with no body and no type.
 * - `Accept-Encoding` (RFC 9110 12.5.3): q-values, `*`, `identity`, `x-gzip`; a coding with
 *   `q=0` is refused; the highest q among the forms the answer has wins, and on a tie the
 *   smaller form (br, then gzip, then the bytes as they are). Without the header, or when
 *   nothing the client accepts is there (`identity;q=0` on a short answer), the bytes go as
 *   they are: a 406 would help nobody.
 * - `Vary: Accept-Encoding` on every answer whose type has compressed forms.
 */

export type Coding = 'br' | 'gzip' | 'identity';
export type Form = Coding | 'not-modified';

interface Preference {
  br: number;
  gzip: number;
  identity: number;
}

/** The q-value of one element's parameters: 1 without `q`, NaN when `q` is malformed. */
function qOf(params: string[]): number {
  for (const p of params) {
    const m = /^\s*q\s*=\s*(\S*)\s*$/i.exec(p);
    if (!m) continue;
    return /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(m[1] ?? '') ? Number(m[1]) : Number.NaN;
  }
  return 1;
}

/** Identity, when the client names neither it nor `*`: acceptable, but after any coding it accepts. */
const IDENTITY_BY_DEFAULT = Number.MIN_VALUE;

function parsePreference(header: string): Preference {
  const named = new Map<string, number>();
  for (const element of header.split(',')) {
    const [token = '', ...params] = element.split(';');
    const name = token.trim().toLowerCase();
    const q = qOf(params);
    if (!name || Number.isNaN(q)) continue;
    const coding = name === 'x-gzip' ? 'gzip' : name;
    if (!named.has(coding)) named.set(coding, q);
  }
  const star = named.get('*');
  return {
    br: named.get('br') ?? star ?? 0,
    gzip: named.get('gzip') ?? star ?? 0,
    identity: named.get('identity') ?? (star === 0 ? 0 : IDENTITY_BY_DEFAULT),
  };
}

const ONLY_IDENTITY: Preference = { br: 0, gzip: 0, identity: 1 };
/** Preferences of the Accept-Encoding values seen (browsers send a handful), at most 64. */
const seen = new Map<string, Preference>();

function preferenceOf(header: string | undefined): Preference {
  if (header === undefined) return ONLY_IDENTITY;
  let preference = seen.get(header);
  if (!preference) {
    preference = parsePreference(header);
    if (seen.size >= 64) seen.clear();
    seen.set(header, preference);
  }
  return preference;
}

/** The coding to send, among those `has` (br and gzip forms present), for this Accept-Encoding. */
export function chooseCoding(header: string | undefined, has: { br: boolean; gzip: boolean }): Coding {
  if (header === undefined || (!has.br && !has.gzip)) return 'identity';
  const p = preferenceOf(header);
  let best: Coding = 'identity';
  let bestQ = p.identity;
  if (has.gzip && p.gzip > 0 && p.gzip >= bestQ) [best, bestQ] = ['gzip', p.gzip];
  if (has.br && p.br > 0 && p.br >= bestQ) best = 'br';
  return best;
}

/** Does `If-None-Match` name this ETag, or `*`? Weak comparison, as RFC 9110 asks for GET. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header === etag) return true;
  if (header.trim() === '*') return true;
  for (const m of header.matchAll(/(?:W\/)?("[^"]*")/g)) if (m[1] === etag) return true;
  return false;
}

/**
 * What this request gets of the answer, among the forms it has or can have (answer.ts: a
 * compressed form is made when a request first takes it: `ready`).
 */
export function formOf(answer: Answer, headers: IncomingHttpHeaders): Form {
  if (answer.etag !== null && matchesEtag(headers['if-none-match'], answer.etag)) return 'not-modified';
  const can = answer.quality !== null;
  return chooseCoding(headers['accept-encoding'], {
    br: can || answer.br !== null,
    gzip: can || answer.gzip !== null,
  });
}

/** Whether the form is there to send (a compressed one may still have to be made). */
export const ready = (answer: Answer, form: Form): boolean =>
  form === 'br' ? answer.br !== null : form === 'gzip' ? answer.gzip !== null : true;

export const statusOf = (answer: Answer, form: Form): number =>
  form === 'not-modified' ? 304 : answer.status;

export function bodyOf(answer: Answer, form: Form): Buffer | null {
  if (form === 'not-modified') return null;
  return (form === 'br' ? answer.br : form === 'gzip' ? answer.gzip : null) ?? answer.identity;
}

/** The security headers of every answer (plugins/security-headers.ts): a page's, and the rest's. */
export interface SecurityHeaders {
  document: Record<string, string>;
  resource: Record<string, string>;
  /** The service worker's script. */
  worker: Record<string, string>;
}

/** Every header of this form of the answer, made once per answer and form. */
export function headersOf(answer: Answer, form: Form, security: SecurityHeaders): Record<string, string> {
  answer.forms ??= new Map();
  let headers = answer.forms.get(form);
  if (headers) return headers;
  headers = {
    ...(answer.document ? security.document : answer.worker ? security.worker : security.resource),
  };
  headers['cache-control'] = answer.cacheControl;
  if (answer.etag !== null) headers.etag = answer.etag;
  if (answer.varies) headers.vary = 'Accept-Encoding';
  const body = bodyOf(answer, form);
  if (body) {
    headers['content-type'] = answer.type;
    if (form === 'br' || form === 'gzip') headers['content-encoding'] = form;
    headers['content-length'] = String(body.length);
  }
  answer.forms.set(form, headers);
  return headers;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The security headers by kind of answer (plugins/security-headers.ts). */
    securityHeaders: SecurityHeaders;
  }
}

/** A route sends a kept answer, once the form it takes is made (answers.ts `form`). */
export async function sendAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: Answer,
): Promise<FastifyReply> {
  let form = formOf(answer, request.headers);
  if (!ready(answer, form) && !(await request.server.answers.form(answer, form as Compressed))) {
    form = 'identity';
  }
  const headers = headersOf(answer, form, request.server.securityHeaders);
  // Another Vary (CORS's Origin) stays beside ours.
  const vary = reply.getHeader('vary');
  void reply.code(statusOf(answer, form)).headers(headers);
  if (vary && headers.vary) void reply.header('vary', `${String(vary)}, ${headers.vary}`);
  const body = bodyOf(answer, form);
  return body ? reply.send(body) : reply.send();
}

/**
 * An answer before routing (early.ts) writes the same status, headers and bytes, in the form
 * `formOf` chose, which must be `ready`.
 */
export function writeAnswer(
  res: ServerResponse,
  answer: Answer,
  form: Form,
  security: SecurityHeaders,
): number {
  const status = statusOf(answer, form);
  res.writeHead(status, headersOf(answer, form, security));
  res.end(bodyOf(answer, form) ?? undefined);
  return status;
}
