import { CompiledQuery } from 'kysely';
import { appendEvents, type LogEvent, openEvents, takeEvents } from '../events/log.ts';
import { announceChange, type ContentVersion, type WriteChanges } from './changes.ts';
import type { DbContext } from './context.ts';
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
 * (events/log.ts) are appended to the event log just before the commit, in the same
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
      : await ctx.db.transaction().execute(async (trx) => {
          openEvents(trx);
          let events: LogEvent[];
          try {
            const value = await fn(trx);
            events = takeEvents(trx);
            await appendEvents(trx, events, ctx.groupCommit.clock.now().toISOString());
            await announceChange(trx, ctx.changes, changes);
            return value;
          } finally {
            takeEvents(trx);
          }
        });
  if (changes === 'content') ctx.changes.bumpContent();
  else ctx.changes.bump();
  return result;
}

// The group's statements, compiled once (no query objects per write).
const BEGIN_SQLITE = CompiledQuery.raw('begin immediate');
const BEGIN = CompiledQuery.raw('begin');
const SAVEPOINT = CompiledQuery.raw('savepoint write');
const RELEASE = CompiledQuery.raw('release write');
const ROLLBACK_TO = CompiledQuery.raw('rollback to write');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

interface Job {
  fn: (trx: Db) => Promise<unknown>;
  changes: WriteChanges;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** Writes one group takes at most. */
const MAX_GROUP = 500;

/**
 * The group commit of one database (its context holds it, db/context.ts). SQLite: every write,
 * one group at a time (one connection). PostgreSQL: the writes asked `grouped`, up to
 * `inFlight` groups side by side, each on a connection of its own: while one group's commit
 * waits for its WAL flush, the next is executed.
 */
export class GroupCommit {
  #queue: Job[] = [];
  #scheduled = false;
  #running = 0;
  /** Groups that committed, and the writes in them that succeeded (for tests and operators). */
  groups = 0;
  written = 0;

  constructor(
    readonly db: Db,
    /** The content version the group's NOTIFY names as its sender (db/changes.ts). */
    readonly version: ContentVersion,
    /** The app's clock (buildApp sets it): when the events of a write were committed. */
    public clock: { now(): Date },
    /** SQLite: every write joins a group. */
    readonly alwaysGroups: boolean,
    readonly inFlight = 1,
  ) {}

  run<T>(fn: (trx: Db) => Promise<T>, changes: WriteChanges = 'all'): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ fn, changes, resolve: resolve as (v: unknown) => void, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#running >= this.inFlight || this.#queue.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      // What waits is shared out among the free places: groups side by side on their own
      // connections commit sooner than one group as large as both.
      while (this.#queue.length > 0 && this.#running < this.inFlight) {
        const size = Math.min(MAX_GROUP, Math.ceil(this.#queue.length / (this.inFlight - this.#running)));
        this.#running++;
        void this.#flush(this.#queue.splice(0, size)).finally(() => {
          this.#running--;
          this.#schedule();
        });
      }
    });
  }

  async #flush(jobs: Job[]): Promise<void> {
    const outcomes: [job: Job, outcome: { ok: true; value: unknown } | { ok: false; err: unknown }][] = [];
    try {
      await this.db.connection().execute(async (conn) => {
        await conn.executeQuery(this.alwaysGroups ? BEGIN_SQLITE : BEGIN);
        try {
          const events: LogEvent[] = [];
          let changes: WriteChanges = 'content';
          for (const job of jobs) {
            await conn.executeQuery(SAVEPOINT);
            openEvents(conn);
            try {
              const value = await job.fn(conn);
              events.push(...takeEvents(conn));
              await conn.executeQuery(RELEASE);
              outcomes.push([job, { ok: true, value }]);
              if (job.changes === 'all') changes = 'all';
            } catch (err) {
              takeEvents(conn);
              await conn.executeQuery(ROLLBACK_TO);
              await conn.executeQuery(RELEASE);
              outcomes.push([job, { ok: false, err }]);
            }
          }
          // The group's events in one insert, in the order of its writes, and the other
          // instances told, as the last steps before the commit.
          await appendEvents(conn, events, this.clock.now().toISOString());
          if (outcomes.some(([, o]) => o.ok)) await announceChange(conn, this.version, changes);
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
    this.groups++;
    for (const [job, outcome] of outcomes) {
      if (outcome.ok) this.written++;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.err);
    }
  }
}
