import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { DbContext } from '../db/context.ts';
import type { Db } from '../db/schema.ts';
import { type Clock, DAY, wakeEvery } from '../lib/clock.ts';
import { OutageLog } from '../lib/outage-log.ts';
import type { Traffic } from '../lib/traffic.ts';
import { releaseLease, takeLease } from '../db/lease.ts';
import { hasNewEvents, takeFromLog, waitingEvents } from '../events/deliverer.ts';
import { type ClaimedRow, EVERY_LANE, noTries, type OutboxChannel, outcomeOf, resultOf } from './channel.ts';
import { abandonStale, claimRows, hasDueRows, hasStaleRows, pendingRows, pruneFinished } from './rows.ts';
import { Settler } from './settle.ts';

export interface DelivererOptions {
  db: Db;
  /** The database's context, for the writes that take events from the log. */
  database: DbContext;
  clock: Clock;
  /** Requests a second: while the service is busy, sending gives way (lib/traffic.ts). */
  traffic: Traffic;
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
 * there is some, it takes or renews the channel's lease (db/lease.ts), and only the holder
 * turns the events into outbox rows (in the transaction that moves the cursor) and does the
 * chores. The holder sends; where a lane's order does not matter (push, e-mail), the other
 * instances send their share of the due rows beside it, and a one-at-a-time channel (Discord)
 * is sent by the holder alone. Each row is claimed in the database before it is sent (rows.ts),
 * so nothing is sent twice by two instances, or across a restart: a row claimed by a process
 * that stopped is never sent again. A failed try is retried after the channel's growing waits
 * and given up after the last; a Retry-After is waited without counting as a try, its lane
 * paused meanwhile on the instance that heard it. Requests never wait for any of this.
 */
/**
 * While the service is busy answering requests (lib/traffic.ts), each channel sends at most its
 * `giveWayPerSecond` messages a second, claimed GIVE_WAY_CLAIM at a time: visitors keep their
 * speed and a go-live's or a digest's messages still go out (docs/decisions.md "Requests come
 * first").
 */
const GIVE_WAY_CLAIM = 5;

/**
 * The places in flight a claim waits for, as a share of the channel's `inFlight`: each claim is
 * a read, a write and a commit of its own, and refilled as each place came free, a go-live's
 * 10,000 messages were claimed about one at a time (docs/benchmarks.md, stop 85). A quarter
 * keeps at least three quarters of the places busy and claims eight push messages at once.
 */
const REFILL_SHARE = 4;

/** Whether a claim may be made with `inFlight` of a channel's `places` taken: a share of them is free. */
export const mayRefill = (inFlight: number, places: number): boolean =>
  places - inFlight >= Math.max(1, Math.floor(places / REFILL_SHARE));

/** How often an instance forgets a channel's finished rows past their `keptForMs`. */
const PRUNE_EVERY_MS = DAY / 24;

/** A claim that got nothing, and lost no row to another instance. */
const NONE = { claimed: [] as never[], lost: false };

export class OutboxDeliverer<Row extends ClaimedRow> {
  readonly holder = randomUUID();
  readonly #pollMs: number;
  readonly #leaseMs: number;
  readonly #leaseMarginMs: number;
  #heldUntil = 0;
  /** This instance sends until then: its lease's end, or the next look's when it shares out. */
  #sendUntil = 0;
  #stopWaking = (): void => undefined;
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
  /** Where sent rows end up, written together. */
  readonly #settler: Settler<Row>;
  /** Reading the outbox, every poll: its failures logged once, and its recovery. */
  readonly #outage: OutageLog;
  /** This instance's tries since its start, by how each ended (`deliveries_total`, metrics/). */
  readonly results = noTries();

  constructor(
    private readonly opts: DelivererOptions,
    readonly channel: OutboxChannel<Row>,
  ) {
    this.#outage = new OutageLog(opts.log, `${channel.name}: reading the outbox`);
    this.#settler = new Settler(opts.database, opts.clock, channel);
    this.#pollMs = opts.pollMs ?? 1000;
    this.#leaseMs = opts.leaseMs ?? 10_000;
    this.#leaseMarginMs = opts.leaseMarginMs ?? 2000;
  }

  start(): void {
    this.#stopWaking = wakeEvery(this.#pollMs, () => this.look());
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#stopWaking();
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
    // Finished rows are forgotten after keptForMs (the privacy page says how long), by every
    // instance, lease or not, and also while nothing more is sent.
    if (now.getTime() - this.#prunedAt > PRUNE_EVERY_MS) {
      this.#prunedAt = now.getTime();
      await pruneFinished(db, table, new Date(now.getTime() - this.channel.keptForMs).toISOString());
    }
    const told = await hasNewEvents(db, name, events);
    const due = await hasDueRows(db, table, iso);
    if (!told && !due && !(await hasStaleRows(db, table, cutoff)) && !(await chores?.waiting(now))) {
      return;
    }
    if (!(await takeLease(db, name, this.holder, now, this.#leaseMs))) {
      this.#heldUntil = 0;
      // Another instance holds the lease. Where a lane's order does not matter, the rows already
      // due are shared out: each is claimed in the database, so this instance sends its share.
      const share = due && !this.channel.oneAtATime;
      this.#sendUntil = share ? now.getTime() + this.#leaseMs : 0;
      if (share) this.#startSending();
      return;
    }
    this.#heldUntil = this.#sendUntil = now.getTime() + this.#leaseMs;
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
    this.#startSending();
  }

  /**
   * A loop already sending claims again now: a slow receiver does not hold the others up, and
   * a loop about to end for want of rows claims once more.
   */
  #startSending(): void {
    const { log } = this.opts;
    const { name } = this.channel;
    this.#moreWork = true;
    this.#poke?.();
    this.#sending ??= this.#send()
      .catch((err: unknown) => log.warn({ err }, `${name}: sending failed`))
      .finally(() => {
        this.#sending = null;
      });
  }

  /**
   * Claims and sends due rows, `inFlight` at a time, while this instance holds the lease (or,
   * sharing out, until the next look).
   */
  async #send(): Promise<void> {
    const { clock } = this.opts;
    const { channel } = this;
    const inFlight = new Map<Promise<void>, string>();
    for (;;) {
      const now = clock.now().getTime();
      // Stop well before the lease could pass to another instance (or the share's time is up).
      if (this.#stopped || now > this.#sendUntil - this.#leaseMarginMs) break;
      const busy = this.opts.traffic.busy();
      const room = Math.min(channel.inFlight - inFlight.size, busy ? GIVE_WAY_CLAIM : Infinity);
      this.#moreWork = false;
      const { claimed, lost } = room > 0 ? await this.#claim(now, room, [...inFlight.values()]) : NONE;
      if (claimed.length === 0 && inFlight.size === 0) {
        // Rows another instance claimed first: the next due ones are claimed at once.
        if (this.#moreWork || lost) continue;
        break;
      }
      for (const { row, lane } of claimed) {
        const one: Promise<void> = this.#deliver(row)
          .catch((err: unknown) => {
            this.results.error++;
            this.opts.log.warn({ err }, `${channel.name}: message ${row.id} failed`);
          })
          .finally(() => inFlight.delete(one));
        inFlight.set(one, lane);
      }
      if (busy && claimed.length > 0) await clock.sleep((claimed.length * 1000) / channel.giveWayPerSecond);
      if (inFlight.size > 0 && claimed.length === 0) {
        await Promise.race([...inFlight.keys(), new Promise<void>((wake) => (this.#poke = wake))]);
        this.#poke = null;
      }
      // The next claim waits for a share of the places, not one.
      while (!mayRefill(inFlight.size, channel.inFlight)) await Promise.race(inFlight.keys());
    }
    await Promise.allSettled(inFlight.keys());
  }

  /** Claims up to `room` due rows outside the lanes that wait or (one at a time) are busy. */
  async #claim(
    now: number,
    room: number,
    busy: string[],
  ): Promise<{ claimed: { row: Row; lane: string }[]; lost: boolean }> {
    const { db } = this.opts;
    const { channel } = this;
    const paused = [...this.#pausedUntil].filter(([, until]) => until > now).map(([lane]) => lane);
    if (paused.includes(EVERY_LANE)) return NONE;
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
    const lost = ids.length < due.length;
    if (ids.length === 0) return { claimed: [], lost };
    const lanes = new Map(due.map((d) => [d.id, d.lane]));
    const rows = await channel.load(db, ids);
    return { claimed: rows.map((row) => ({ row, lane: lanes.get(row.id) ?? '' })), lost };
  }

  async #deliver(row: Row): Promise<void> {
    const answer = await this.channel.send(this.opts.db, row, this.opts.clock.now());
    const now = this.opts.clock.now();
    if (answer.pause) this.#pausedUntil.set(answer.pause.lane, now.getTime() + answer.pause.ms);
    const outcome = outcomeOf(this.channel, this.opts.log, row, answer, now);
    this.results[resultOf(answer, outcome)]++;
    await this.#settler.settle(row, outcome);
  }
}
