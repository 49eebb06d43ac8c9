import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { DbContext } from '../db/context.ts';
import type { Db } from '../db/schema.ts';
import { type Clock, DAY } from '../lib/clock.ts';
import { OutageLog } from '../lib/outage-log.ts';
import { releaseLease, takeLease } from '../sync/lease.ts';
import { hasNewEvents, takeFromLog, waitingEvents } from '../events/deliverer.ts';
import { type ClaimedRow, EVERY_LANE, type OutboxChannel, outcomeOf } from './channel.ts';
import {
  abandonStale,
  claimRows,
  hasDueRows,
  hasStaleRows,
  pendingRows,
  pruneFinished,
  type Settled,
  settleRows,
} from './rows.ts';
import { writeTransaction } from '../db/transaction.ts';

export interface DelivererOptions {
  db: Db;
  /** The database's context, for the writes that take events from the log. */
  database: DbContext;
  clock: Clock;
  log: FastifyBaseLogger;
  /** How often every instance looks for work. */
  pollMs?: number;
  /** The lease's lifetime, renewed at every look while there is work. */
  leaseMs?: number;
  /** Sending stops this long before the lease could pass to another instance. */
  leaseMarginMs?: number;
}

/**
 * Delivers one channel's messages from the event log (SPEC "what happened is a row"). Every
 * instance looks every `pollMs` for work: events of the channel's kinds past its cursor
 * (events/deliverer.ts), due rows, rows whose sender stopped, the channel's own chores. When
 * there is some, it takes or renews the channel's lease (sync/lease.ts), and only the holder
 * turns the events into outbox rows (in the transaction that moves the cursor) and sends.
 * Each row is claimed in the database before it is sent (rows.ts), so nothing is sent
 * twice even by two instances that both believe they hold the lease, or across a restart: a
 * row claimed by a process that stopped is never sent again. A failed try is retried after
 * the channel's growing waits and given up after the last; a Retry-After is waited without
 * counting as a try, its lane paused meanwhile. Requests never wait for any of this.
 */
export class OutboxDeliverer<Row extends ClaimedRow> {
  readonly holder = randomUUID();
  readonly #pollMs: number;
  readonly #leaseMs: number;
  readonly #leaseMarginMs: number;
  #heldUntil = 0;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #looking: Promise<void> | null = null;
  /** The look asked for while one was under way (which may have read before the asker's write). */
  #nextLook: Promise<void> | null = null;
  /** Set by a look: the send loop claims once more before it ends. */
  #moreWork = false;
  #sending: Promise<void> | null = null;
  /** Wakes a send loop that waits for its rows in flight: a look found more work. */
  #poke: (() => void) | null = null;
  /** Lanes that asked to wait (lane → epoch ms). */
  readonly #pausedUntil = new Map<string, number>();
  #prunedAt = 0;
  /** Rows sent whose outcome waits to be written (#settle), and the write under way. */
  #settling: { id: number; row: Row; outcome: Settled; done: () => void; failed: (err: unknown) => void }[] =
    [];
  #flushing = false;
  /** Reading the outbox, every poll: its failures logged once, and its recovery. */
  readonly #outage: OutageLog;

  constructor(
    private readonly opts: DelivererOptions,
    readonly channel: OutboxChannel<Row>,
  ) {
    this.#outage = new OutageLog(opts.log, `${channel.name}: reading the outbox`);
    this.#pollMs = opts.pollMs ?? 1000;
    this.#leaseMs = opts.leaseMs ?? 10_000;
    this.#leaseMarginMs = opts.leaseMarginMs ?? 2000;
  }

  start(): void {
    const beat = () => {
      this.#timer = setTimeout(() => {
        void this.look().finally(() => {
          if (!this.#stopped) beat();
        });
      }, this.#pollMs);
      this.#timer.unref();
    };
    beat();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#looking?.catch(() => undefined);
    await this.idle();
    this.channel.close?.();
    if (this.#heldUntil > 0) {
      await releaseLease(this.opts.db, this.channel.name, this.holder).catch(() => undefined);
    }
    this.#heldUntil = 0;
  }

  /** Looks for work and starts sending what is due (the timer, and tests, call it). */
  look(): Promise<void> {
    if (this.#looking) {
      // The look under way may have read before the caller's work was written: one more follows it.
      this.#nextLook ??= this.#looking.then(() => {
        this.#nextLook = null;
        return this.look();
      });
      return this.#nextLook;
    }
    this.#looking = this.#look()
      .then(
        () => this.#outage.worked(),
        (err: unknown) => this.#outage.failed(err),
      )
      .finally(() => {
        this.#looking = null;
      });
    return this.#looking;
  }

  /** Resolves when nothing is being sent (tests). */
  async idle(): Promise<void> {
    while (this.#sending) await this.#sending.catch(() => undefined);
  }

  /** Still to send (the queue-depth metric): the channel's events past its cursor and its pending rows. */
  async backlog(): Promise<number> {
    const { db } = this.opts;
    const { name, events, table } = this.channel;
    return (await waitingEvents(db, name, events)) + (await pendingRows(db, table));
  }

  async #look(): Promise<void> {
    if (this.#stopped) return;
    const { db, clock, database, log } = this.opts;
    const { name, table, events, chores } = this.channel;
    const now = clock.now();
    const iso = now.toISOString();
    const cutoff = new Date(now.getTime() - this.channel.staleAfterMs).toISOString();
    const told = await hasNewEvents(db, name, events);
    if (
      !told &&
      !(await hasDueRows(db, table, iso)) &&
      !(await hasStaleRows(db, table, cutoff)) &&
      !(await chores?.waiting(now))
    ) {
      return;
    }
    if (!(await takeLease(db, name, this.holder, now, this.#leaseMs))) {
      this.#heldUntil = 0;
      return;
    }
    this.#heldUntil = now.getTime() + this.#leaseMs;
    if (told) {
      // From the log to the outbox: each event taken once, in the transaction that moves the cursor.
      while (
        (await takeFromLog(database, name, events, (trx, taken) => this.channel.fromLog(trx, taken, now))) > 0
      );
    }
    await chores?.run(now);
    const stale = await abandonStale(db, table, cutoff, iso);
    if (stale > 0) {
      log.warn(
        `${name}: ${stale} message(s) were being sent when their sender stopped; they may have arrived and are not sent again`,
      );
    }
    if (now.getTime() - this.#prunedAt > DAY / 24) {
      this.#prunedAt = now.getTime();
      await pruneFinished(db, table, new Date(now.getTime() - this.channel.keptForMs).toISOString());
    }
    // A loop already sending claims again now: a slow receiver does not hold the others up,
    // and a loop about to end for want of rows claims once more.
    this.#moreWork = true;
    this.#poke?.();
    this.#sending ??= this.#send()
      .catch((err: unknown) => log.warn({ err }, `${name}: sending failed`))
      .finally(() => {
        this.#sending = null;
      });
  }

  /** Claims and sends due rows, `inFlight` at a time, while this instance holds the lease. */
  async #send(): Promise<void> {
    const { clock } = this.opts;
    const { channel } = this;
    const inFlight = new Map<Promise<void>, string>();
    for (;;) {
      const now = clock.now().getTime();
      // Stop well before the lease could pass to another instance.
      if (this.#stopped || now > this.#heldUntil - this.#leaseMarginMs) break;
      const room = channel.inFlight - inFlight.size;
      this.#moreWork = false;
      const claimed = room > 0 ? await this.#claim(now, room, [...inFlight.values()]) : [];
      if (claimed.length === 0 && inFlight.size === 0) {
        if (this.#moreWork) continue;
        break;
      }
      for (const { row, lane } of claimed) {
        const one: Promise<void> = this.#deliver(row)
          .catch((err: unknown) => this.opts.log.warn({ err }, `${channel.name}: message ${row.id} failed`))
          .finally(() => inFlight.delete(one));
        inFlight.set(one, lane);
      }
      if (inFlight.size > 0 && (claimed.length === 0 || inFlight.size >= channel.inFlight)) {
        await Promise.race([...inFlight.keys(), new Promise<void>((wake) => (this.#poke = wake))]);
        this.#poke = null;
      }
    }
    await Promise.allSettled(inFlight.keys());
  }

  /** Claims up to `room` due rows outside the lanes that wait or (one at a time) are busy. */
  async #claim(now: number, room: number, busy: string[]): Promise<{ row: Row; lane: string }[]> {
    const { db } = this.opts;
    const { channel } = this;
    const paused = [...this.#pausedUntil].filter(([, until]) => until > now).map(([lane]) => lane);
    if (paused.includes(EVERY_LANE)) return [];
    const skip = channel.oneAtATime ? [...paused, ...busy] : paused;
    const iso = new Date(now).toISOString();
    let due = await channel.due(db, iso, room, skip);
    if (channel.oneAtATime) {
      // The oldest of each lane only: the next goes once it is settled.
      const lanes = new Set<string>();
      due = due.filter(({ lane }) => !lanes.has(lane) && lanes.add(lane) !== undefined);
    }
    const ids = await claimRows(
      db,
      channel.table,
      due.map((d) => d.id),
      this.holder,
      iso,
    );
    if (ids.length === 0) return [];
    const lanes = new Map(due.map((d) => [d.id, d.lane]));
    return (await channel.load(db, ids)).map((row) => ({ row, lane: lanes.get(row.id) ?? '' }));
  }

  async #deliver(row: Row): Promise<void> {
    const answer = await this.channel.send(this.opts.db, row, this.opts.clock.now());
    const now = this.opts.clock.now();
    if (answer.pause) this.#pausedUntil.set(answer.pause.lane, now.getTime() + answer.pause.ms);
    await this.#settle(row, outcomeOf(this.channel, this.opts.log, row, answer, now));
  }

  /**
   * Writes where a sent row ends up, with the others that came meanwhile: a group commit of
   * the outbox (one transaction for every row whose send ended while the last one was being
   * written; the channel's own writes for the rows sent go in it too). A row's send counts as
   * done, freeing its place, once its outcome is written.
   */
  #settle(row: Row, outcome: Settled): Promise<void> {
    return new Promise((done, failed) => {
      this.#settling.push({ id: row.id, row, outcome, done, failed });
      if (!this.#flushing) {
        this.#flushing = true;
        void this.#flush();
      }
    });
  }

  async #flush(): Promise<void> {
    const { database, clock } = this.opts;
    const { channel } = this;
    while (this.#settling.length > 0) {
      const batch = this.#settling.splice(0);
      const iso = clock.now().toISOString();
      try {
        await writeTransaction(
          database,
          async (trx) => {
            await settleRows(trx, channel.table, batch, iso);
            const sent = batch.filter((b) => b.outcome.state === 'sent').map((b) => b.row);
            if (sent.length > 0) await channel.settled?.(trx, sent, iso);
          },
          'none',
        );
        for (const b of batch) b.done();
      } catch (err) {
        for (const b of batch) b.failed(err);
      }
    }
    this.#flushing = false;
  }
}
