import type { FastifyBaseLogger } from 'fastify';
import type { DbContext } from '../db/context.ts';
import { HOUR, type Clock, upkeep } from '../lib/clock.ts';
import { OutageLog } from '../lib/outage-log.ts';
import { eventsAfter, headId, type LoggedEvent, pruneLog } from './log.ts';

/** Rows read at once; a longer backlog is read in several turns. */
const PAGE = 1_000;

type Listener = (events: LoggedEvent[]) => Promise<void> | void;

/**
 * One instance's view of the event log (docs/architecture.md "Where an event goes"): it reads
 * the rows past its cursor whenever the content version moves, which happens after every commit
 * of this instance, when PostgreSQL's NOTIFY says another instance committed (LISTEN only wakes
 * it: the rows are the events), and when SQLite's data_version says another process did.
 * Wake-ups while it reads make one more read, never a second reader, so the listeners (this
 * instance's event streams) get every committed event once, in the order of the ids. It starts
 * at the log's head: a stream opened later catches up from the log itself (events/routes.ts).
 */
export class EventTail {
  #cursor = 0;
  #reading: Promise<void> | null = null;
  #again = false;
  #stopped = false;
  readonly #listeners = new Set<Listener>();
  readonly #unsubscribe: () => void;
  readonly #stopPruning: () => void;
  readonly #outage: OutageLog;

  private constructor(
    readonly database: DbContext,
    clock: Clock,
    log: FastifyBaseLogger,
  ) {
    this.#outage = new OutageLog(log, 'events: reading the event log');
    this.#unsubscribe = database.changes.onBump(() => void this.wake());
    // Every instance prunes (a delete of rows every instance would delete alike), once an hour.
    this.#stopPruning = upkeep(
      clock,
      HOUR,
      () => pruneLog(database.db, clock.now()),
      (err) => log.warn({ err }, 'events: pruning the log failed'),
    );
  }

  static async start(database: DbContext, clock: Clock, log: FastifyBaseLogger): Promise<EventTail> {
    const tail = new EventTail(database, clock, log);
    tail.#cursor = await headId(database.db);
    return tail;
  }

  /** The id of the last event handed to the listeners. */
  get cursor(): number {
    return this.#cursor;
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** Reads what the log gained (called on every move of the content version); resolves when read. */
  wake(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    if (this.#reading) {
      this.#again = true;
      return this.#reading;
    }
    this.#reading = this.#read().finally(() => {
      this.#reading = null;
    });
    return this.#reading;
  }

  async #read(): Promise<void> {
    do {
      this.#again = false;
      let page: LoggedEvent[];
      try {
        page = await eventsAfter(this.database.db, this.#cursor, PAGE);
        this.#outage.worked();
      } catch (err) {
        // The next move of the version (the database back) reads again from the same cursor.
        this.#outage.failed(err);
        return;
      }
      const last = page.at(-1);
      if (!last) continue;
      this.#cursor = last.id;
      for (const listener of this.#listeners) await listener(page);
      if (page.length === PAGE) this.#again = true;
    } while (this.#again && !this.#stopped);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe();
    this.#stopPruning();
    await this.#reading?.catch(() => undefined);
  }
}
