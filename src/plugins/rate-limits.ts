import type { FastifyRequest } from 'fastify';
import { type ParsedQuery, parsedQuery } from './parsers.ts';

/**
 * DECISIONS.md's limits per minute. What people write (comments, suggestions, reports) counts
 * per signed-in account, and per address only for guests, so that one account never limits
 * another on a shared address; sign-in and the password login count per address.
 */
export const LIMITS = { login: 10, comment: 10, suggest: 5, signin: 20, report: 30, push_test: 5 } as const;
export type Bucket = keyof typeof LIMITS;
const PER_ACCOUNT: ReadonlySet<Bucket> = new Set(['comment', 'suggest', 'report', 'push_test']);

/** The counter of a request: its account, else its address (by its guest tag, never the address). */
export const accountOrAddress = (request: FastifyRequest): string =>
  request.viewer?.user ? `u:${request.viewer.user.id}|` : `g:${request.guestTag}|`;
export const address = (request: FastifyRequest): string => `g:${request.guestTag}|`;

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
      keyGenerator: PER_ACCOUNT.has(bucket) ? accountOrAddress : address,
      ...(unless ? { allowList: (request: FastifyRequest) => unless(parsedQuery(request)) } : {}),
    },
  };
}
