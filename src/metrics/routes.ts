import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { fail } from '../errors.ts';
import { errors } from '../lib/schemas.ts';

/**
 * `GET /metrics` (DECISIONS.md "Operating"): the Prometheus text format, for a scraper that
 * sends `Authorization: Bearer <METRICS_TOKEN>` (the `metricsToken` guard). Everyone else,
 * and everyone while METRICS_TOKEN is unset, gets the 404 of a path that does not exist.
 */
export const metricsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/metrics',
    {
      config: { guard: 'metricsToken', session: false },
      schema: {
        summary: 'Metrics in the Prometheus text format (needs METRICS_TOKEN)',
        description:
          'Requests by method, route pattern and status; request durations by route; live sync calls ' +
          'by provider and result; PostgreSQL pool waiters; resident memory, event-loop lag and the ' +
          "other Node.js process metrics of prom-client's defaults.",
        response: {
          200: {
            description: 'Prometheus text exposition format 0.0.4',
            content: { 'text/plain; version=0.0.4; charset=utf-8': { schema: { type: 'string' } } },
          },
          ...errors(404),
        },
      },
    },
    async (_request, reply) => {
      const { metrics } = app;
      if (metrics === null) throw fail('not_found'); // unreachable: the guard refuses first
      const text = await metrics.text();
      return reply.type(metrics.contentType).header('cache-control', 'no-store').send(text);
    },
  );
};
