import type { Pool, PoolClient } from 'pg';
import type { TestApp } from './app.ts';
import type { Client } from './client.ts';

/** The callers the race tests send their writes as: the administrator, a moderator, a user. */
export async function raceCallers(t: TestApp): Promise<{ admin: Client; mod: Client; author: Client }> {
  return {
    admin: await t.admin(),
    mod: await t.signedIn(await t.user({}, { mod: true })),
    author: await t.signedIn(await t.user()),
  };
}

/** Waits until `n` requests of this database wait for a lock, or `unless` says stop. */
export type UntilWaiting = (n: number, unless?: () => boolean) => Promise<void>;

/**
 * PostgreSQL: runs `hold` in a transaction of another connection (a row it locks), then `send`,
 * which sends the writes and waits, by condition and never by the clock, until they wait for
 * that transaction's locks; then the transaction lets go. Answers what `send` answers. The pool
 * is the app's (5 connections): `send` holds at most 3 writes' transactions waiting at once.
 */
export async function whileHeld<T>(
  pool: Pool,
  hold: (other: PoolClient) => Promise<unknown>,
  send: (untilWaiting: UntilWaiting) => Promise<T>,
): Promise<T> {
  const other = await pool.connect();
  try {
    await other.query('begin');
    await hold(other);
    const { pid } = (await other.query('select pg_backend_pid() as pid')).rows[0] as { pid: number };
    return await send(async (n, unless = () => false) => {
      while (!unless() && (await waitingBeside(pool, pid)) < n)
        await new Promise((next) => setImmediate(next));
    });
  } finally {
    await other.query('rollback');
    other.release();
  }
}

/** Requests of this database waiting for a lock, other than `pid`'s. */
async function waitingBeside(pool: Pool, pid: number): Promise<number> {
  const res = await pool.query(
    `select count(*)::int as n from pg_stat_activity
     where datname = current_database() and wait_event_type = 'Lock' and pid <> $1`,
    [pid],
  );
  return (res.rows[0] as { n: number }).n;
}
