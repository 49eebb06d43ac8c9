import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { DomainError } from '../errors.ts';
import { errors, OK, Ok } from '../lib/schemas.ts';

/** `GET /healthz`: 200 when the database answers, 503 otherwise (for load balancers). */
export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/healthz',
    {
      config: { guard: 'public', session: false },
      schema: {
        summary: 'Health: 200 while the database answers, else 503',
        response: { 200: Ok, ...errors(503) },
      },
    },
    async (request) => {
      try {
        await sql`select 1`.execute(app.db);
        return OK;
      } catch (err) {
        request.log.warn({ err }, 'health check: database unavailable');
        throw new DomainError(503, 'Service unavailable', { 'retry-after': '5' });
      }
    },
  );
};
