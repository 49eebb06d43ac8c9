import { CompiledQuery } from 'kysely';
import { announceChange, type WriteChanges } from './changes.ts';
import type { DbContext } from './context.ts';
import type { Db } from './schema.ts';

/**
 * Runs `fn` as one atomic write and, once it has committed, moves the content version
 * (db/changes.ts) so cached answers are rendered again. Every content write goes through
 * here; the answer to the client is sent only after the commit.
 *
 * PostgreSQL: a transaction of its own. SQLite: group commit. The writes that arrive in the
 * same turn of the event loop run one after another in ONE transaction, each inside a
 * savepoint (so each is still all-or-nothing on its own: a write that fails is rolled back
 * to its savepoint and rejected, the others go on), and one COMMIT makes them all durable
 * with one fsync. Each is acknowledged only after that commit; if the commit fails, every
 * write of the group fails. The transaction begins IMMEDIATE: it takes the write lock up
 * front, so another process waits on the busy timeout instead of failing with SQLITE_BUSY.
 */
export async function writeTransaction<T>(
  ctx: DbContext,
  fn: (trx: Db) => Promise<T>,
  changes: WriteChanges = 'all',
): Promise<T> {
  const result = ctx.groupCommit
    ? await ctx.groupCommit.run(fn)
    : await ctx.db.transaction().execute(async (trx) => {
        const value = await fn(trx);
        await announceChange(trx, changes);
        return value;
      });
  if (changes === 'content') ctx.changes.bumpContent();
  else ctx.changes.bump();
  return result;
}

// The group's statements, compiled once (no query objects per write).
const BEGIN = CompiledQuery.raw('begin immediate');
const SAVEPOINT = CompiledQuery.raw('savepoint write');
const RELEASE = CompiledQuery.raw('release write');
const ROLLBACK_TO = CompiledQuery.raw('rollback to write');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

interface Job {
  fn: (trx: Db) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** SQLite's group commit of one database (its context holds it, db/context.ts). */
export class GroupCommit {
  #queue: Job[] = [];
  #scheduled = false;

  constructor(readonly db: Db) {}

  run<T>(fn: (trx: Db) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => void this.#flush());
      }
    });
  }

  async #flush(): Promise<void> {
    const jobs = this.#queue;
    this.#queue = [];
    this.#scheduled = false;
    const outcomes: [
      job: (typeof jobs)[number],
      outcome: { ok: true; value: unknown } | { ok: false; err: unknown },
    ][] = [];
    try {
      await this.db.connection().execute(async (conn) => {
        await conn.executeQuery(BEGIN);
        try {
          for (const job of jobs) {
            await conn.executeQuery(SAVEPOINT);
            try {
              outcomes.push([job, { ok: true, value: await job.fn(conn) }]);
              await conn.executeQuery(RELEASE);
            } catch (err) {
              await conn.executeQuery(ROLLBACK_TO);
              await conn.executeQuery(RELEASE);
              outcomes.push([job, { ok: false, err }]);
            }
          }
          await conn.executeQuery(COMMIT);
        } catch (err) {
          await conn.executeQuery(ROLLBACK).catch(() => undefined);
          throw err;
        }
      });
    } catch (err) {
      // Nothing of the group was committed: no write may be acknowledged.
      for (const job of jobs) job.reject(err);
      return;
    }
    outcomes.forEach(([job, outcome]) => {
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.err);
    });
  }
}

interface Pending<I, O> {
  input: I;
  resolve: (value: O) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for PostgreSQL, one statement per group: writes of one kind that arrive while
 * `inFlight` groups are on their way (or in the same turn of the event loop) are written
 * together by `write`, which takes them all and answers one result per input, in order, in
 * ONE statement (one round trip, one commit, one WAL flush). Under load a group holds its
 * share of the writes that arrived during one round trip; alone, a write waits one turn of
 * the event loop. Each write is acknowledged only after its group committed, and the content
 * version (db/changes.ts) moves before that. A group whose statement fails is retried one
 * write at a time, so that one bad write (a row deleted meanwhile) fails alone.
 */
export class BatchWriter<I, O> {
  #queue: Pending<I, O>[] = [];
  /** Groups whose statement is on its way (at most `inFlight`). */
  #writing = 0;
  #scheduled = false;
  /** Statements that committed, and the writes in them (for tests and operators). */
  groups = 0;
  written = 0;

  constructor(
    readonly ctx: DbContext,
    readonly write: (db: Db, inputs: I[]) => Promise<O[]>,
    readonly changes: WriteChanges = 'all',
    readonly maxBatch = 500,
    /**
     * Groups written at once, each on a connection of its own: the writes waiting are shared
     * out among the free places, and PostgreSQL executes the groups side by side and flushes
     * their commits together.
     */
    readonly inFlight = 1,
  ) {}

  run(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#queue.push({ input, resolve, reject });
      if (!this.#scheduled && this.#writing < this.inFlight) {
        this.#scheduled = true;
        setImmediate(() => {
          this.#scheduled = false;
          this.#start();
        });
      }
    });
  }

  /** Starts groups with what is queued while fewer than `inFlight` are on their way; whether one started. */
  #start(): boolean {
    let started = false;
    while (this.#queue.length > 0 && this.#writing < this.inFlight) {
      // What waits is shared out among the free places: groups side by side on their own
      // connections commit sooner than one group as large as both.
      const size = Math.min(this.maxBatch, Math.ceil(this.#queue.length / (this.inFlight - this.#writing)));
      this.#writing++;
      void this.#writeGroup(this.#queue.splice(0, size));
      started = true;
    }
    return started;
  }

  async #writeGroup(group: Pending<I, O>[]): Promise<void> {
    const outcomes = await this.#written(group);
    this.#writing--;
    // The next group goes to the database before this one's writes are acknowledged, so that
    // the database writes while this process answers: the pool hands a connection over in a
    // `process.nextTick` (pg-pool), and the acknowledgements queue behind it.
    const acknowledge = () => outcomes.forEach((settle) => settle());
    if (this.#start()) process.nextTick(acknowledge);
    else acknowledge();
  }

  /** Writes a group (one write at a time if its statement fails); how to settle each of its writes. */
  async #written(group: Pending<I, O>[]): Promise<(() => void)[]> {
    let outputs: O[];
    try {
      outputs = await this.write(
        this.ctx.db,
        group.map((p) => p.input),
      );
    } catch (err) {
      if (group.length === 1) return [() => group[0]?.reject(err)];
      const settled: (() => void)[] = [];
      for (const one of group) settled.push(...(await this.#written([one])));
      return settled;
    }
    this.groups++;
    this.written += group.length;
    if (this.changes === 'content') this.ctx.changes.bumpContent();
    else this.ctx.changes.bump();
    return group.map((p, i) => () => p.resolve(outputs[i] as O));
  }
}
