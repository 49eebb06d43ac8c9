import type { FastifyInstance } from 'fastify';
import { fail } from '../errors.ts';
import { errors } from './schemas.ts';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

/** SPEC.md: a method the resource does not support gives 405 `Method not allowed`. */
export function methodNotAllowed(app: FastifyInstance, url: string, allowed: string[]): void {
  const others = METHODS.filter((m) => !allowed.includes(m));
  app.route({
    method: others,
    url,
    config: { guard: 'public' },
    schema: { summary: `Not supported here: 405 (allowed: ${allowed.join(', ')})`, response: errors(405) },
    handler: async () => {
      throw fail('method_not_allowed', { allow: allowed.join(', ') });
    },
  });
}
