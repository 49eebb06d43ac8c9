import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { fail } from '../errors.ts';
import { errors, OK, Ok } from '../lib/schemas.ts';
import type { HealthCheck } from './check.ts';

/** `GET /healthz`: 200 when the database answers, 503 otherwise (for load balancers). */
export const healthRoutes: FastifyPluginAsyncTypebox<{ check: HealthCheck }> = async (app, { check }) => {
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
        await check();
        return OK;
      } catch (err) {
        request.log.warn({ err }, 'health check: database unavailable');
        throw fail('service_unavailable', { 'retry-after': '5' });
      }
    },
  );
};
