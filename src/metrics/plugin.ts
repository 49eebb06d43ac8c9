import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type pg from 'pg';
import type { DbFailures } from '../db/failures.ts';
import { Metrics, UNMATCHED } from './collector.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The metrics (metrics/collector.ts); null while METRICS_TOKEN is unset. */
    metrics: Metrics | null;
  }
}

/**
 * Metrics, only when METRICS_TOKEN is set: without it nothing is registered and a request
 * pays nothing. With it, one `onResponse` hook counts every answer under its route's
 * pattern (`/api/streamers`, `/s/:slug`, or `(unmatched)`), with Fastify's own timing of
 * the reply. Registered before the routes, so that it sees all of them and the 404 handler.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, opts: { pool?: pg.Pool; failures?: DbFailures }) => {
    if (app.config.metricsToken === null) {
      app.decorate('metrics', null);
      return;
    }
    const metrics = new Metrics(opts.pool, opts.failures);
    app.decorate('metrics', metrics);
    // The answers written before routing are counted the same way (cache/early.ts).
    app.earlyAnswers.hooks.observe = (route, method, status, seconds) =>
      metrics.observe(route, method, status, seconds);
    app.addHook('onResponse', (request, reply, done) => {
      metrics.observe(
        request.routeOptions.url ?? UNMATCHED,
        request.method,
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
      done();
    });
  },
  { name: 'metrics' },
);
