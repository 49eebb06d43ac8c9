import { CompiledQuery } from 'kysely';
import type { DbContext } from '../db/context.ts';
import type { Clock } from '../lib/clock.ts';

/** PostgreSQL: whether this connection's transactions take writes (a failover's standby's do not). */
const READ_ONLY = CompiledQuery.raw("select current_setting('transaction_read_only') as read_only");

/** A database that answered this recently is not asked again (milliseconds). */
export const HEALTH_FRESH_MS = 100;

/** Resolves when the database answers; undefined when it answered within HEALTH_FRESH_MS. */
export type HealthCheck = () => Promise<void> | undefined;

/**
 * The database check of /healthz, shared: after a successful answer the database is not
 * asked again for HEALTH_FRESH_MS, and requests that arrive while a check runs wait for
 * that one. A storm of health checks (several load balancers, a monitor gone wild) costs
 * the database ten queries a second at most; a failure is never remembered, so the first
 * check after the database stops answering already reports it. A check that answers at once
 * (SQLite's, `check` returning nothing) counts as fresh: a load balancer's check every few
 * seconds is then answered before routing too. `answered` is told of each answer that was asked
 * for (not of the fresh ones).
 */
export function sharedCheck(
  check: () => Promise<void> | void,
  clock: Clock,
  answered: () => void = () => undefined,
): HealthCheck {
  let answeredAt = Number.NEGATIVE_INFINITY;
  let running: Promise<void> | null = null;
  return () => {
    // A clock set back (by NTP, say) makes the last answer stale, never fresh for longer.
    const age = clock.now().getTime() - answeredAt;
    if (age >= 0 && age < HEALTH_FRESH_MS) return undefined;
    if (running) return running;
    let pending: Promise<void> | void;
    try {
      pending = check();
    } catch (err) {
      // Awaited by the route; the answer before routing only sees that it is not undefined.
      const failed = Promise.reject(err instanceof Error ? err : new Error(String(err)));
      failed.catch(() => undefined);
      return failed;
    }
    if (pending === undefined) {
      answeredAt = clock.now().getTime();
      answered();
      return undefined;
    }
    running = pending.then(
      () => {
        answeredAt = clock.now().getTime();
        running = null;
        answered();
      },
      (err: unknown) => {
        running = null;
        throw err;
      },
    );
    return running;
  };
}

/**
 * The service's database answers and takes writes, shared as above: on SQLite `select 1`,
 * answered at once (a full disk is told by the writes that fail); on PostgreSQL a
 * connection whose transactions are read-only (a standby after a failover) fails it too.
 */
export function databaseCheck(database: DbContext, clock: Clock): HealthCheck {
  const statement = database.sqlite?.prepare('select 1');
  return sharedCheck(
    statement
      ? () => void statement.get()
      : async () => takesWrites(await database.db.executeQuery(READ_ONLY)),
    clock,
    // A database that did not answer and answers again is said in the log once (db/failures.ts).
    () => database.failures.answered(),
  );
}

/** The database answers but takes no writes: `?detail=1` names it apart from one that does not answer. */
export class ReadOnlyDatabase extends Error {}

function takesWrites({ rows }: { rows: unknown[] }): void {
  if ((rows[0] as { read_only?: string } | undefined)?.read_only !== 'off')
    throw new ReadOnlyDatabase('the database takes no writes (read-only)');
}
