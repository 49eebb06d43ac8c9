import { sql } from 'kysely';
import type { Db } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';

type Callback = (err: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * A store for @fastify/rate-limit in the database, so that every instance on one database
 * counts against the same limit (N instances do not give N times the limit). Fixed windows:
 * one upsert per counted request, atomic on both databases.
 */
export function databaseStore(db: Db, clock: Clock) {
  return class DatabaseStore {
    incr(key: string, callback: Callback, timeWindow: number): void {
      const now = clock.now();
      const nowIso = now.toISOString();
      const reset = new Date(now.getTime() + timeWindow).toISOString();
      db.insertInto('rate_limits')
        .values({ key, hits: 1, reset_at: reset })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            hits: sql<number>`case when rate_limits.reset_at <= ${nowIso} then 1 else rate_limits.hits + 1 end`,
            reset_at: sql<string>`case when rate_limits.reset_at <= ${nowIso} then ${reset} else rate_limits.reset_at end`,
          }),
        )
        .returning(['hits', 'reset_at'])
        .executeTakeFirstOrThrow()
        .then(
          (row) =>
            callback(null, { current: row.hits, ttl: Math.max(0, Date.parse(row.reset_at) - now.getTime()) }),
          (err: Error) => callback(err),
        );
    }

    child(): DatabaseStore {
      return new DatabaseStore();
    }
  };
}

/** Forgets windows that have ended. */
export async function purgeRateLimits(db: Db, now: Date): Promise<void> {
  await db.deleteFrom('rate_limits').where('reset_at', '<', now.toISOString()).execute();
}
