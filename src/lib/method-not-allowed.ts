import type { FastifyInstance } from 'fastify';
import { fail } from '../errors.ts';
import { errors } from './schemas.ts';

/** The methods a resource's 405 answers (TRACE too: a path that exists is never 404 for it). */
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'TRACE'] as const;

/**
 * SPEC.md: a method the resource does not support gives 405 `Method not allowed`, with `Allow`.
 * Left out of the API document, which says it once (openapi/openapi.ts): an operation that can
 * only refuse is noise to every tool that reads the document.
 */
export function methodNotAllowed(app: FastifyInstance, url: string, allowed: string[]): void {
  const others = METHODS.filter((m) => !allowed.includes(m));
  app.route({
    method: others,
    url,
    config: { guard: 'public' },
    schema: {
      summary: `Not supported here: 405 (allowed: ${allowed.join(', ')})`,
      response: errors(405),
      hide: true,
    },
    handler: async () => {
      throw fail('method_not_allowed', { allow: allowed.join(', ') });
    },
  });
}
