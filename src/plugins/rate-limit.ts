import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DomainError } from '../errors.ts';
import type { Clock } from '../lib/clock.ts';
import { MINUTE } from '../lib/clock.ts';

/** DECISIONS.md's limits, per client address and minute. */
export const LIMITS = {
  login: 10,
  comment: 10,
  suggest: 5,
  signin: 20,
} as const;

export type Bucket = keyof typeof LIMITS;

export interface RateLimiter {
  /** Counts one request of this client against the bucket; throws 429 past the limit. */
  hit(request: FastifyRequest, bucket: Bucket): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimit: RateLimiter;
  }
}

/**
 * Fixed one-minute windows kept in this process. The client address is `request.ip`, which
 * Fastify takes from X-Forwarded-For only when the connection comes from TRUST_PROXY.
 * Several instances behind a load balancer each count on their own (documented in docs/).
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, opts: { enabled: boolean; clock: Clock }) => {
    const windows = new Map<string, { count: number; resetAt: number }>();

    const hit = (request: FastifyRequest, bucket: Bucket) => {
      if (!opts.enabled) return;
      const now = opts.clock.now().getTime();
      const key = `${bucket}\u0000${request.ip}`;
      let w = windows.get(key);
      if (!w || w.resetAt <= now) {
        w = { count: 0, resetAt: now + MINUTE };
        windows.set(key, w);
      }
      w.count++;
      if (w.count > LIMITS[bucket]) {
        const retryAfter = Math.max(1, Math.ceil((w.resetAt - now) / 1000));
        throw new DomainError(429, 'Too many requests', { 'retry-after': String(retryAfter) });
      }
    };

    const sweep = setInterval(() => {
      const now = opts.clock.now().getTime();
      for (const [key, w] of windows) if (w.resetAt <= now) windows.delete(key);
    }, MINUTE);
    sweep.unref();
    app.addHook('onClose', async () => clearInterval(sweep));

    app.decorate('rateLimit', { hit });
  },
  { name: 'rate-limit' },
);
