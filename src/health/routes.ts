import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { makeAnswer } from '../cache/answer.ts';
import { sendAnswer } from '../cache/sender.ts';
import { fail } from '../errors.ts';
import { errors, Ok } from '../lib/schemas.ts';
import type { HealthCheck } from './check.ts';

/** `GET /healthz`: 200 when the database answers, 503 otherwise (for load balancers). */
export const healthRoutes: FastifyPluginAsyncTypebox<{ check: HealthCheck }> = async (app, { check }) => {
  const healthy = await makeAnswer('{"ok":true}', {
    type: 'application/json; charset=utf-8',
    cacheControl: 'no-store',
    version: null,
    etag: null,
  });
  // Every load balancer asks every few seconds: while the database answered lately (check.ts),
  // the answer is written before routing.
  app.earlyAnswers.exact('/healthz', {
    route: '/healthz',
    find: () => (check() === undefined ? healthy : undefined),
  });

  app.get(
    '/healthz',
    {
      config: { guard: 'public', session: false },
      schema: {
        summary: 'Health: 200 while the database answers, else 503',
        response: { 200: Ok, ...errors(503) },
      },
    },
    async (request, reply) => {
      try {
        await check();
      } catch (err) {
        request.log.warn({ err }, 'health check: database unavailable');
        throw fail('service_unavailable', { 'retry-after': '5' });
      }
      return sendAnswer(request, reply, healthy);
    },
  );
};
