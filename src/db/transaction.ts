import { openEvents, stageEvents, takeEvents } from './event-log.ts';
import type { Batch } from './batched.ts';
import type { WriteChanges } from './changes.ts';
import type { DbContext } from './context.ts';
import { BEGIN, committing, ROLLBACK, statement } from './group-commit.ts';
import { pipelined } from './pipeline.ts';
import type { Db } from './schema.ts';

/** How a write is run: what it changes, and whether it may share a commit with others. */
export interface WriteOptions {
  /** What the write changes (db/changes.ts): `content` keeps the session cache. */
  changes?: WriteChanges;
  /**
   * Many small writes of one kind (comment posts): on PostgreSQL they join a group commit too,
   * as every write does on SQLite.
   */
  grouped?: boolean;
}

/**
 * Runs `fn` as one atomic write and, once it has committed, moves the content version
 * (db/changes.ts) so cached answers are rendered again. Every content write goes through
 * here; the answer to the client is sent only after the commit. The events `fn` publishes
 * (event-log.ts) are appended to the event log just before the commit, in the same
 * transaction: a write that fails publishes nothing.
 *
 * PostgreSQL: a transaction of its own, or with `grouped`, a group commit. SQLite: group
 * commit always. A group commit runs the writes that arrive in the same turn of the event loop
 * one after another in ONE transaction, each inside a savepoint (so each is still
 * all-or-nothing on its own: a write that fails is rolled back to its savepoint, its events
 * dropped, and rejected; the others go on), and one COMMIT makes them all durable with one
 * fsync. Each is acknowledged only after that commit; if the commit fails, every write of the
 * group fails. SQLite's transaction begins IMMEDIATE: it takes the write lock up front, so
 * another process waits on the busy timeout instead of failing with SQLITE_BUSY.
 */
export async function writeTransaction<T>(
  ctx: DbContext,
  fn: (trx: Db) => Promise<T>,
  options: WriteChanges | WriteOptions = 'all',
): Promise<T> {
  const { changes = 'all', grouped = false } = typeof options === 'string' ? { changes: options } : options;
  const result =
    ctx.groupCommit.alwaysGroups || grouped
      ? await ctx.groupCommit.run(fn, changes)
      : await ctx.db.connection().execute(async (conn) => {
          // PostgreSQL, a transaction of its own: begun, the write, then its events staged and
          // appended, the other instances told and the commit in one round trip.
          await conn.executeQuery(statement(BEGIN));
          openEvents(conn);
          try {
            const value = await fn(conn);
            const events = takeEvents(conn);
            if (changes === 'none' && events.length > 0)
              throw new Error('a write that changes nothing published events');
            const staged = await stageEvents(conn, events, ctx.groupCommit.clock.now().toISOString());
            await pipelined(conn, [
              ...(staged ? [staged] : []),
              statement(committing(staged, ctx.changes, changes)),
            ]);
            return value;
          } catch (err) {
            await conn.executeQuery(ROLLBACK).catch(() => undefined);
            throw err;
          } finally {
            takeEvents(conn);
          }
        });
  ctx.changes.moved(changes);
  ctx.failures.wrote();
  return result;
}

/**
 * A write of a kind that runs together with the others of its group (`Batch`), as a group
 * commit on both databases; otherwise as writeTransaction.
 */
export async function writeBatched<I, T>(
  ctx: DbContext,
  batch: Batch<I, T>,
  input: I,
  changes: WriteChanges = 'all',
): Promise<T> {
  const result = await ctx.groupCommit.run(alone(batch, input), changes, { batch, input });
  ctx.changes.moved(changes);
  ctx.failures.wrote();
  return result;
}

/** A write of a batch run alone: `many` of one. */
const alone =
  <I, T>(batch: Batch<I, T>, input: I) =>
  async (trx: Db): Promise<T> => {
    const [outcome] = await batch.many(trx, [input]);
    if (!outcome) throw new Error('a batch answered no outcome');
    if (!outcome.ok) throw outcome.err;
    return outcome.value;
  };
