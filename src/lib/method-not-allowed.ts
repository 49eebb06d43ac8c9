import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { fail } from '../errors.ts';
import { preflightHeaders } from './cors.ts';
import { errors } from './schemas.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route only answers 405: checks that come after the method's (CSRF) leave it alone. */
    methodNotAllowed?: true;
  }
}

/**
 * The methods a resource's 405 answers (TRACE too: a path that exists is never 404 for it;
 * OPTIONS too: a CORS preflight from a configured origin is answered by the hook of
 * plugins/external.ts before this route's, the service's own origin's here (it is always an
 * allowed one, DECISIONS.md "Cross-origin"), and any other OPTIONS is a method like the rest).
 */
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'OPTIONS'] as const;

/**
 * SPEC.md: a method the resource does not support gives 405 `Method not allowed`, with `Allow`.
 * It wins over every other error (DECISIONS.md "Errors": the method first), so it is answered
 * when the request arrives, before its body is read (400 `Invalid JSON`, 413, 415) and before
 * the CSRF check. Left out of the API document, which says it once (openapi/openapi.ts): an
 * operation that can only refuse is noise to every tool that reads the document.
 */
export function methodNotAllowed(app: FastifyInstance, url: string, allowed: readonly string[]): void {
  const others = METHODS.filter((m) => !allowed.includes(m));
  if (others.length === 0) return;
  const refusal = () => fail('method_not_allowed', { allow: allowed.join(', ') });
  app.route({
    method: others,
    url,
    config: { guard: 'public', methodNotAllowed: true },
    schema: {
      summary: `Not supported here: 405 (allowed: ${allowed.join(', ')})`,
      // 204: the own origin's preflight (empty).
      response: { ...errors(405), 204: Type.Null() },
      hide: true,
    },
    onRequest: (request, reply, done) => {
      const own = app.config.origin;
      if (request.method === 'OPTIONS' && request.headers.origin === own) {
        return void reply.code(204).headers(preflightHeaders(own)).send();
      }
      done(refusal());
    },
    handler: async () => {
      throw refusal();
    },
  });
}

/**
 * The addresses outside `/api/` (the pages, the feeds, the images, `/healthz`) answer the methods
 * they lack as the API's do: 405 with `Allow` naming the documented methods (HEAD, which every GET
 * answers, is left out there as well), not 404, which says that nothing is there (issue 45, item 26). Called once every route is registered. Left alone:
 * the metrics, whose refusal is the unknown path's 404 (plugins/guards.ts), the stand-ins under
 * `/dev/`, and the addresses of a wildcard, which are not one resource.
 */
export function refuseOtherMethods(app: FastifyInstance): void {
  const allowed = new Map<string, Set<string>>();
  for (const route of app.routeList) {
    const { url, method, guard } = route;
    if (/^\/(api|dev)\//.test(url) || guard === 'metricsToken' || url.includes('*')) continue;
    const methods = allowed.get(url) ?? new Set<string>();
    if (method !== 'OPTIONS' && method !== 'HEAD') methods.add(method);
    allowed.set(url, methods);
  }
  for (const [url, methods] of allowed) {
    methodNotAllowed(
      app,
      url,
      [...methods].sort((a, b) => METHODS.indexOf(a as never) - METHODS.indexOf(b as never)),
    );
  }
}
