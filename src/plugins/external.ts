import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config/config.ts';
import type { Db } from '../db/schema.ts';
import { fail } from '../errors.ts';
import { CORS_POLICY } from '../lib/cors.ts';
import { type Clock, MINUTE, upkeep } from '../lib/clock.ts';
import { compressionPlugin } from './compression.ts';
import { databaseStore, purgeRateLimits } from './rate-limit-store.ts';
import { address } from './rate-limits.ts';

/** The ecosystem's kept plugins, registered in one place with their options. */
export const externalPlugins = fp(
  async (app: FastifyInstance, opts: { config: Config; db: Db; clock: Clock }) => {
    const { config, db, clock } = opts;

    // CORS: exact allowlist with credentials, never `*` (DECISIONS.md). The CSRF rule is csrf.ts.
    // The service's own origin is always allowed: same-origin calls need no CORS headers, and its
    // preflight is answered where a foreign one gets the 405 of any OPTIONS
    // (lib/method-not-allowed.ts). Without CORS_ORIGINS no other answer depends on Origin: the
    // plugin, whose hook costs a twentieth of a small answer, is then not registered at all.
    // Its hook answers an allowed origin's OPTIONS with 204 before the route's 405; not
    // strictly (one without Access-Control-Request-Method would get a text/plain 400).
    const allowed = new Set(config.corsOrigins);
    if (allowed.size > 0) {
      await app.register(cors, {
        origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
        credentials: true,
        methods: [...CORS_POLICY.methods],
        allowedHeaders: [...CORS_POLICY.allowedHeaders],
        exposedHeaders: [...CORS_POLICY.exposedHeaders],
        maxAge: CORS_POLICY.maxAge,
        strictPreflight: false,
      });
    }

    await app.register(cookie);

    // JSON over 1 KiB compressed when the request accepts it: compression.ts.
    await app.register(compressionPlugin);

    if (config.rateLimit) {
      // Loaded only when rate limits are on (RATE_LIMIT=off starts without it).
      const { default: rateLimit } = await import('@fastify/rate-limit');
      await app.register(rateLimit, {
        global: false,
        // After the guard (onRequest) and validation: refused requests are not counted twice.
        hook: 'preHandler',
        store: databaseStore(db, clock),
        // Per route (rate-limits.ts); counters are keyed by guest tags, never by addresses.
        keyGenerator: address,
        errorResponseBuilder: (_request, context) =>
          fail('too_many_requests', {
            'retry-after': String(Math.max(1, Math.ceil(context.ttl / 1000))),
          }),
      });
      // Every 10 minutes of the app's clock.
      const stop = upkeep(
        clock,
        10 * MINUTE,
        () => purgeRateLimits(db, clock.now()),
        (err) => app.log.warn({ err }, 'rate-limit purge'),
      );
      app.addHook('onClose', async () => stop());
    }
  },
  { name: 'external-plugins' },
);
