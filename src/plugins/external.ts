import { getHeapStatistics } from 'node:v8';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import type { Db } from '../db/schema.ts';
import { DomainError } from '../errors.ts';
import { type Clock, MINUTE } from '../lib/clock.ts';
import { databaseStore, purgeRateLimits } from './rate-limit-store.ts';

/**
 * Load shedding: when the event loop lags (MAX_EVENT_LOOP_DELAY_MS) or the heap nears
 * Node's limit, answer 503 with Retry-After at once instead of queueing without bound
 * (docs/decisions.md "Overload").
 */
function pressure(config: Config) {
  return {
    maxEventLoopDelay: config.maxEventLoopDelayMs,
    // Short samples: a one-off pause (start-up, a large render) sheds at most this long.
    sampleInterval: 250,
    maxHeapUsedBytes: Math.floor(0.9 * getHeapStatistics().heap_size_limit),
    retryAfter: 5,
  };
}

/**
 * Load shedding. The work of starting (compiling every route's schemas at ready) is not
 * load: pressure seen in the first two samples after ready is ignored. Otherwise a request
 * under pressure fails with a 503 that errors.ts answers `Service unavailable` with
 * Retry-After.
 */
export const loadShedding = fp(
  async (app: FastifyInstance, opts: { config: Config }) => {
    const settings = pressure(opts.config);
    let steadyFrom = Infinity;
    app.addHook('onReady', async () => {
      steadyFrom = Date.now() + 2 * settings.sampleInterval;
    });
    await app.register(underPressure, {
      ...settings,
      pressureHandler: async () => {
        if (Date.now() < steadyFrom) return;
        throw new DomainError(503, 'Service unavailable', { 'retry-after': String(settings.retryAfter) });
      },
    });
  },
  { name: 'load-shedding' },
);

/** The ecosystem's kept plugins, registered in one place with their options. */
export const externalPlugins = fp(
  async (app: FastifyInstance, opts: { config: Config; db: Db; clock: Clock }) => {
    const { config, db, clock } = opts;

    // CORS: exact allowlist with credentials, never `*` (DECISIONS.md). The CSRF rule is csrf.ts.
    const allowed = new Set(config.corsOrigins);
    await app.register(cors, {
      origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
      credentials: true,
      methods: ['GET', 'POST', 'PUT', 'DELETE'],
      allowedHeaders: ['Content-Type'],
      maxAge: 600,
    });

    await app.register(cookie);

    // JSON over 1 KiB compressed when the request accepts it (DECISIONS.md "Caching"); the
    // rendered answers (cache/) arrive already compressed and pass through untouched.
    await app.register(compress, { encodings: ['br', 'gzip'], threshold: 1024 });

    if (config.rateLimit) {
      await app.register(rateLimit, {
        global: false,
        // After the guard (onRequest) and validation: refused requests are not counted twice.
        hook: 'preHandler',
        store: databaseStore(db, clock),
        keyGenerator: (request) => `${normalizeIP(request.ip)}|`,
        errorResponseBuilder: (_request, context) =>
          new DomainError(429, 'Too many requests', {
            'retry-after': String(Math.max(1, Math.ceil(context.ttl / 1000))),
          }),
      });
      const timer = setInterval(
        () =>
          void purgeRateLimits(db, clock.now()).catch((err: unknown) =>
            app.log.warn({ err }, 'rate-limit purge'),
          ),
        10 * MINUTE,
      );
      timer.unref();
      app.addHook('onClose', async () => clearInterval(timer));
    }
  },
  { name: 'external-plugins' },
);
