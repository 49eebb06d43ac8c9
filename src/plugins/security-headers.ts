import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The page: its own scripts and styles, avatars from the providers' https hosts. */
const DOCUMENT_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' https: data:",
  "connect-src 'self'",
  "font-src 'self'",
  "form-action 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Everything that is not a page (JSON, scripts, styles, images): it may load nothing. */
const RESOURCE_CSP = "default-src 'none'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** The service worker (web/public/sw.js): it may ask the site's own API (a streamer's avatar), nothing else. */
const WORKER_CSP =
  "default-src 'none'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/**
 * The headers of an answer that is not an HTML page, errors and the earliest failures
 * included: nosniff, no referrer, a CSP that allows nothing, HSTS on https.
 */
export function securityHeaders(https: boolean): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'content-security-policy': RESOURCE_CSP,
    ...(https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

/** The headers of an HTML page: the page's CSP, and framing and opener isolation. */
export function documentHeaders(https: boolean): Record<string, string> {
  return {
    ...securityHeaders(https),
    'content-security-policy': DOCUMENT_CSP,
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
  };
}

/** The headers of the service worker's script: what it runs under. */
export function workerHeaders(https: boolean): Record<string, string> {
  return { ...securityHeaders(https), 'content-security-policy': WORKER_CSP };
}

/**
 * Security headers on every answer, errors and 404s included (SECURITY.md item 20). HTML
 * pages get the page's policy; every other answer the short one that allows nothing, which
 * also keeps the headers of a small JSON answer short.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, opts: { https: boolean }) => {
    const resource = securityHeaders(opts.https);
    const document = documentHeaders(opts.https);
    app.decorate('securityHeaders', { resource, document, worker: workerHeaders(opts.https) });
    // Callback hooks (here and in the other per-request plugins): no promise per request.
    app.addHook('onSend', (_request, reply, payload, done) => {
      // A kept answer brought its own (cache/sender.ts): a page's 304 has no type to tell by.
      if (reply.hasHeader('content-security-policy')) return done(null, payload);
      const type = reply.getHeader('content-type');
      reply.headers(typeof type === 'string' && type.startsWith('text/html') ? document : resource);
      done(null, payload);
    });
  },
  { name: 'security-headers' },
);
