import { CompiledQuery } from 'kysely';
import { APPEND_STAGED, type LogEvent, openEvents, stageEvents, takeEvents } from './event-log.ts';
import { type ContentVersion, mostOf, notifyStatement, type WriteChanges } from './changes.ts';
import type { Batch, Outcome } from './batched.ts';
import { lockStatement } from './group-locks.ts';
import { boundConnection, pipelined } from './pipeline.ts';
import type { Db } from './schema.ts';

// The group's statements. PostgreSQL gets those that follow each other without a write between
// them as one query (one round trip: the simple protocol takes several statements); SQLite,
// in process, runs them one by one.
const BEGIN_SQLITE = 'begin immediate';
export const BEGIN = 'begin';
const SAVEPOINT = 'savepoint write';
const RELEASE = 'release write';
const ROLLBACK_TO = 'rollback to write';
const COMMIT = 'commit';
export const ROLLBACK = CompiledQuery.raw('rollback');
/**
 * The statements that end a write on PostgreSQL, as one query (after its staged events, if any):
 * the staged events appended under the log's lock (event-log.ts), the other instances told
 * (NOTIFY), COMMIT.
 */
export const committing = (
  staged: CompiledQuery | null,
  version: ContentVersion,
  changes: WriteChanges,
): string =>
  [
    ...(staged ? [APPEND_STAGED] : []),
    ...(changes !== 'none' ? [notifyStatement(version, changes)] : []),
    COMMIT,
  ].join('; ');

const compiled = new Map<string, CompiledQuery>();
export const statement = (text: string): CompiledQuery => {
  let query = compiled.get(text);
  if (!query) compiled.set(text, (query = CompiledQuery.raw(text)));
  return query;
};

interface Job {
  fn: (trx: Db) => Promise<unknown>;
  /** A write of a batch: run with the others of its kind in the group. */
  together?: { batch: Batch<unknown, unknown>; input: unknown };
  changes: WriteChanges;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

const notAnswered: Outcome<never> = { ok: false, err: new Error('a batch answered no outcome') };

/**
 * A group's jobs as they run: each write alone, but the writes of one batch together, where the
 * first of them is.
 */
function unitsOf(jobs: Job[]): Job[][] {
  const units: Job[][] = [];
  const byBatch = new Map<unknown, Job[]>();
  for (const job of jobs) {
    const batch = job.together?.batch;
    const unit = batch && byBatch.get(batch);
    if (unit) unit.push(job);
    else {
      const alone = [job];
      units.push(alone);
      if (batch) byBatch.set(batch, alone);
    }
  }
  return units;
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

  run<T>(fn: (trx: Db) => Promise<T>, changes: WriteChanges = 'all', together?: Job['together']): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({
        fn,
        ...(together ? { together } : {}),
        changes,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
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
    const outcomes: [job: Job, outcome: Outcome<unknown>][] = [];
    const sqlite = this.alwaysGroups;
    try {
      await this.db.connection().execute(async (conn) => {
        const run = async (...statements: string[]) => {
          if (!sqlite) await conn.executeQuery(statement(statements.join('; ')));
          else for (const text of statements) await conn.executeQuery(statement(text));
        };
        const bound = sqlite ? null : await boundConnection(conn);
        // Opens a write. SQLite runs the statements; PostgreSQL sends them ahead of the write's
        // first query, in its round trip (db/pipeline.ts), and `failed` says how they ended.
        const open = async (
          ...statements: string[]
        ): Promise<{ failed: Promise<{ err: unknown } | null> }> => {
          if (!bound) {
            await run(...statements);
            return { failed: Promise.resolve(null) };
          }
          const sent = bound.executeQuery(statement(statements.join('; ')));
          return {
            failed: sent.then(
              () => null,
              (err: unknown) => ({ err }),
            ),
          };
        };
        // What ends the write before: nothing yet, its savepoint released, or rolled back to.
        const locks = sqlite
          ? null
          : lockStatement(jobs.flatMap((job) => (job.together ? [job.together] : [])));
        let ending = sqlite ? [BEGIN_SQLITE] : [BEGIN, ...(locks ? [locks] : [])];
        const events: LogEvent[] = [];
        /** Runs `fn` in a savepoint; keeps its events if it succeeds. */
        const step = async <T>(fn: (trx: Db) => Promise<T>): Promise<Outcome<T>> => {
          const { failed } = await open(...ending, SAVEPOINT);
          /** A savepoint (or the group's BEGIN) that failed fails the group, not this write alone. */
          const opened = async () => {
            const failure = await failed;
            if (failure) throw failure.err;
          };
          openEvents(conn);
          try {
            const value = await fn(conn);
            await opened();
            events.push(...takeEvents(conn));
            ending = [RELEASE];
            return { ok: true, value };
          } catch (err) {
            takeEvents(conn);
            await opened();
            ending = [ROLLBACK_TO, RELEASE];
            return { ok: false, err };
          }
        };
        try {
          for (const unit of unitsOf(jobs)) {
            if (unit.length === 1 || !unit[0]?.together) {
              for (const job of unit) outcomes.push([job, await step(job.fn)]);
              continue;
            }
            const { batch } = unit[0].together;
            const together = await step((trx) =>
              batch.many(
                trx,
                unit.map((job) => job.together?.input),
              ),
            );
            if (together.ok) unit.forEach((job, i) => outcomes.push([job, together.value[i] ?? notAnswered]));
            else for (const job of unit) outcomes.push([job, await step(job.fn)]);
          }
          const changes = mostOf(outcomes.flatMap(([job, o]) => (o.ok ? [job.changes] : [])));
          if (changes === 'none' && events.length > 0)
            throw new Error('a write that changes nothing published events');
          // The group's events, in the order of its writes, staged (PostgreSQL) or inserted
          // (SQLite), then appended under the log's lock with the other instances told and the
          // COMMIT, in one round trip: no turn of this event loop while the lock is held. A
          // savepoint rolled back to comes first; one released goes with the commit.
          if (ending[0] === ROLLBACK_TO) {
            await run(...ending);
            ending = [];
          }
          const staged = await stageEvents(conn, events, this.clock.now().toISOString());
          if (sqlite) await run(...ending, COMMIT);
          else {
            const end = [...ending, committing(staged, this.version, changes)].join('; ');
            await pipelined(conn, [...(staged ? [staged] : []), statement(end)]);
          }
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
