import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden } from '../errors.ts';

const UNSAFE = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

export interface CorsCsrfOptions {
  /** The service's own origin, from BASE_URL. */
  origin: string;
  /** CORS_ORIGINS: exact origins allowed to call with credentials. */
  allowed: readonly string[];
}

/** The origin this request reached us at, from its Host header and scheme. */
function requestOrigin(request: FastifyRequest): string | undefined {
  const host = request.headers.host;
  return host ? `${request.protocol}://${host}` : undefined;
}

/**
 * Cross-origin allowlist (exact origins, never `*`) and the CSRF rule of DECISIONS.md: an
 * unsafe method from a foreign Origin, or marked `Sec-Fetch-Site: cross-site` by a browser,
 * gets 403 before any handler runs, so it changes nothing.
 */
export const corsCsrfPlugin = fp(
  async (app: FastifyInstance, opts: CorsCsrfOptions) => {
    const allowed = new Set(opts.allowed);

    app.addHook('onRequest', async (request, reply) => {
      const origin = request.headers.origin;
      const isAllowed = origin !== undefined && allowed.has(origin);
      if (origin !== undefined) {
        reply.header('vary', 'Origin');
        if (isAllowed) {
          reply.header('access-control-allow-origin', origin);
          reply.header('access-control-allow-credentials', 'true');
        }
      }

      if (request.method === 'OPTIONS') {
        if (isAllowed && request.headers['access-control-request-method']) {
          reply.header('access-control-allow-methods', 'GET, POST, PUT, DELETE');
          reply.header('access-control-allow-headers', 'Content-Type');
          reply.header('access-control-max-age', '600');
        }
        return reply.code(204).send();
      }

      if (!UNSAFE.has(request.method)) return;
      const own = origin === opts.origin || origin === requestOrigin(request);
      if (origin !== undefined && !own && !isAllowed) throw forbidden();
      if (request.headers['sec-fetch-site'] === 'cross-site' && !isAllowed) throw forbidden();
    });
  },
  { name: 'cors-csrf' },
);
