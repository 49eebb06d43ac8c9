import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { fail } from '../errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route changes nothing a session may do and needs no CSRF check: its query carries
     * the right (the one-click unsubscription, RFC 8058, posted by mail clients from anywhere).
     */
    crossSite?: true;
  }
}

const UNSAFE = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

export interface CsrfOptions {
  /** The service's own origin, from BASE_URL. */
  origin: string;
  /** CORS_ORIGINS: exact origins allowed to call with credentials. */
  allowed: readonly string[];
}

/**
 * The CSRF rule of DECISIONS.md, kept apart from CORS (which only decides what browsers may
 * read): an unsafe method from a foreign Origin, or marked `Sec-Fetch-Site: cross-site` by a
 * browser, gets 403 before any handler runs, so it changes nothing. No library does exactly
 * this; it is a few lines.
 *
 * The own origin is BASE_URL's, never one made from the request's `Host`: a page on a name
 * the attacker controls that resolves to this server (DNS rebinding) sends `Host` and
 * `Origin` alike, so a Host-derived origin would vouch for it.
 */
export const csrfPlugin = fp(
  async (app: FastifyInstance, opts: CsrfOptions) => {
    const allowed = new Set(opts.allowed);
    const refused = (request: FastifyRequest): boolean => {
      if (!UNSAFE.has(request.method)) return false;
      // A method the address lacks is refused first, whatever its origin (lib/method-not-allowed.ts).
      const config = request.routeOptions.config;
      if (config?.crossSite || config?.methodNotAllowed) return false;
      const origin = request.headers.origin;
      const isAllowed = origin !== undefined && allowed.has(origin);
      if (origin !== undefined && origin !== opts.origin && !isAllowed) return true;
      return request.headers['sec-fetch-site'] === 'cross-site' && !isAllowed;
    };
    app.addHook('onRequest', (request, _reply, done) => {
      if (refused(request)) done(fail('forbidden'));
      else done();
    });
  },
  { name: 'csrf' },
);
