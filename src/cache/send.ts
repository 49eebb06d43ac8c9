import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Rendered } from './rendered.ts';

type Encoding = 'br' | 'gzip' | null;

/** Answers for the Accept-Encoding values seen (browsers send a handful), at most 64. */
const known = new Map<string, Encoding>();

/** The encodings a request accepts, honouring `;q=0` refusals. */
export function acceptedEncoding(header: string | undefined): Encoding {
  if (!header) return null;
  let encoding = known.get(header);
  if (encoding === undefined) {
    encoding = parseAccepted(header);
    if (known.size >= 64) known.clear();
    known.set(header, encoding);
  }
  return encoding;
}

function parseAccepted(header: string): Encoding {
  const accepted = new Set<string>();
  for (const part of header.split(',')) {
    const [token = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (q === undefined || Number(q) > 0) accepted.add(token.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('x-gzip')) return 'gzip';
  return null;
}

/** Does `If-None-Match` name this ETag (or `*`)? Weak comparison, as RFC 9110 asks for GET. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header === etag) return true;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

/** What a rendered answer sends for one request: its status, encoding and bytes. */
export interface Answer {
  status: 200 | 304;
  encoding: 'br' | 'gzip' | null;
  /** null for a 304. */
  body: Buffer | null;
}

/**
 * The answer to a request for a rendered entry: 304 to a matching If-None-Match, else the
 * stored br or gzip bytes when the request accepts them, else the JSON bytes.
 */
export function answerFor(
  rendered: Rendered<unknown>,
  ifNoneMatch: string | undefined,
  acceptEncoding: string | undefined,
): Answer {
  if (matchesEtag(ifNoneMatch, rendered.etag)) return { status: 304, encoding: null, body: null };
  const encoding = rendered.br && acceptedEncoding(acceptEncoding);
  if (encoding === 'br' && rendered.br) return { status: 200, encoding, body: rendered.br };
  if (encoding === 'gzip' && rendered.gzip) return { status: 200, encoding, body: rendered.gzip };
  return { status: 200, encoding: null, body: rendered.identity };
}

/** Headers of every rendered answer besides its ETag (DECISIONS.md "Caching"). */
export const RENDERED_HEADERS = { 'cache-control': 'private, no-cache' } as const;

/** The type of a rendered answer with a body; a 304 has none, so it names none (RFC 9110 15.4.5). */
export const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' } as const;

/**
 * Sends a rendered answer: ETag, `Cache-Control: private, no-cache` (DECISIONS.md
 * "Caching"), 304 to a matching If-None-Match, and the stored br or gzip bytes when the
 * request accepts them. Nothing is serialized or compressed per request.
 */
export function sendRendered(request: FastifyRequest, reply: FastifyReply, rendered: Rendered<unknown>) {
  const answer = answerFor(rendered, request.headers['if-none-match'], request.headers['accept-encoding']);
  void reply
    .header('etag', rendered.etag)
    .headers(RENDERED_HEADERS)
    .header('vary', [reply.getHeader('vary'), 'Accept-Encoding'].filter(Boolean).join(', '));
  if (answer.status === 304) return reply.code(304).send();
  void reply.headers(JSON_TYPE);
  if (answer.encoding) void reply.header('content-encoding', answer.encoding);
  return reply.send(answer.body);
}
