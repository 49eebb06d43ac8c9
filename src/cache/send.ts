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

/**
 * Sends a rendered answer: ETag, `Cache-Control: private, no-cache` (DECISIONS.md
 * "Caching"), 304 to a matching If-None-Match, and the stored br or gzip bytes when the
 * request accepts them. Nothing is serialized or compressed per request.
 */
export function sendRendered(request: FastifyRequest, reply: FastifyReply, rendered: Rendered<unknown>) {
  void reply
    .header('etag', rendered.etag)
    .header('cache-control', 'private, no-cache')
    .header('vary', [reply.getHeader('vary'), 'Accept-Encoding'].filter(Boolean).join(', '))
    .header('content-type', 'application/json; charset=utf-8');
  if (matchesEtag(request.headers['if-none-match'], rendered.etag)) return reply.code(304).send();
  const encoding = rendered.br && acceptedEncoding(request.headers['accept-encoding']);
  if (encoding === 'br' && rendered.br) return reply.header('content-encoding', 'br').send(rendered.br);
  if (encoding === 'gzip' && rendered.gzip)
    return reply.header('content-encoding', 'gzip').send(rendered.gzip);
  return reply.send(rendered.identity);
}
