import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * API answers are not stored by browsers or proxies unless a route says otherwise (the
 * streamer list and comments answer `private, no-cache` with an ETag).
 */
export const cacheControlPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) {
        reply.header('cache-control', 'no-store');
      }
      done(null, payload);
    });
  },
  { name: 'cache-control' },
);
