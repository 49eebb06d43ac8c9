import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { DomainError } from '../errors.ts';
import { errors, Ok } from '../lib/schemas.ts';

/** `GET /healthz`: 200 when the database answers, 503 otherwise (for load balancers). */
export async function healthRoutes(app: FastifyInstance) {
  app.get(
    '/healthz',
    { config: { guard: 'public' }, schema: { response: { 200: Ok, ...errors(503) } } },
    async (request) => {
      try {
        await sql`select 1`.execute(app.db);
        return { ok: true };
      } catch (err) {
        request.log.warn({ err }, 'health check: database unavailable');
        throw new DomainError(503, 'Service unavailable', { 'retry-after': '5' });
      }
    },
  );
}
