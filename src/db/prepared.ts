import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

/** SQL texts that become named prepared statements at most: the rest run unnamed. */
export const NAMED_MAX = 200;
/** PostgreSQL's `feature_not_supported`, which "cached plan must not change result type" answers. */
const STALE_PLAN = '0A000';
/** A text is named once it has run this often: a text of one use is not kept by every backend. */
const NAMED_AFTER = 2;

/**
 * PostgreSQL: the pool as Kysely sees it, whose clients run each SQL text that recurs, with
 * parameters, as a named prepared statement (node-postgres's `{ name, text, values }`): every
 * backend parses and plans it once and keeps the plan (its plan cache chooses a generic plan
 * after five runs where that costs no more), where an unnamed statement is planned at every run.
 * The hot statements are few and fixed (Kysely compiles a query shape to one text, a group's
 * rules ask over arrays: db/sql-rules.ts); planning the rules of a group of posts took about a
 * millisecond of the group's time (docs/benchmarks.md, stop 55). Texts without parameters run as
 * they are (the simple protocol, which takes several statements: db/transaction.ts).
 */
export function preparingPool(pool: pg.Pool): PostgresPool {
  const names = new Map<string, string>();
  const seen = new Map<string, number>();
  const nameOf = (text: string): string | undefined => {
    const name = names.get(text);
    if (name !== undefined || names.size >= NAMED_MAX) return name;
    const runs = (seen.get(text) ?? 0) + 1;
    if (runs < NAMED_AFTER) {
      // Texts seen once are forgotten in bulk, so that this map stays small too.
      if (seen.size >= NAMED_MAX * 4) seen.clear();
      seen.set(text, runs);
      return undefined;
    }
    seen.delete(text);
    const named = `s${names.size + 1}`;
    names.set(text, named);
    return named;
  };
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let wrapped = clients.get(client);
    if (!wrapped) {
      /** A kept statement the schema changed under (below): the connection is let go, not reused. */
      let stale: Error | undefined;
      wrapped = {
        query: ((text: unknown, values?: readonly unknown[]) => {
          if (typeof text !== 'string' || !values || values.length === 0) {
            return (client.query as (...args: unknown[]) => unknown)(text, values);
          }
          const name = nameOf(text);
          if (name === undefined) return client.query(text, [...values]);
          return client.query({ name, text, values: [...values] }).catch((err: unknown) => {
            // "cached plan must not change result type": another instance's migration changed
            // the columns of a `select *` this connection keeps. Its statements are dropped with
            // it when it goes back to the pool; this query fails (a 503), the next one runs anew.
            if ((err as { code?: unknown }).code === STALE_PLAN) stale = err as Error;
            throw err;
          });
        }) as PostgresPoolClient['query'],
        release: () => client.release(stale),
      };
      clients.set(client, wrapped);
    }
    return wrapped;
  };
  return {
    connect: async () => wrap(await pool.connect()),
    end: () => pool.end(),
  };
}
