import type { FastifyRequest } from 'fastify';
import { type ParsedQuery, parsedQuery } from './parsers.ts';

/** DECISIONS.md's limits, per client address and minute. */
export const LIMITS = { login: 10, comment: 10, suggest: 5, signin: 20 } as const;
export type Bucket = keyof typeof LIMITS;

/**
 * A route's rate limit, for its `config` (counted by @fastify/rate-limit, registered in
 * external.ts unless RATE_LIMIT=off). Routes sharing a bucket share one counter; `unless`
 * exempts requests that the bucket does not count (an administrator's add, a callback).
 */
export function limit(bucket: Bucket, unless?: (query: ParsedQuery) => boolean) {
  return {
    rateLimit: {
      max: LIMITS[bucket],
      timeWindow: 60_000,
      groupId: bucket,
      ...(unless ? { allowList: (request: FastifyRequest) => unless(parsedQuery(request)) } : {}),
    },
  };
}
