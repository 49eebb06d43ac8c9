import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import type { DbContext } from '../db/context.ts';
import type { Db } from '../db/schema.ts';
import { hasNewEvents, takeFromLog, waitingEvents } from '../events/deliverer.ts';
import { type Clock, DAY } from '../lib/clock.ts';
import { OutageLog } from '../lib/outage-log.ts';
import { releaseLease, takeLease } from '../sync/lease.ts';
import type { VapidKeys } from './keys.ts';
import { notificationPayload, type PushPayload } from './message.ts';
import {
  abandonStale,
  type Claimed,
  claimDue,
  createdIn,
  hasDue,
  type Outcome,
  pendingMessages,
  pruneFinished,
  queueNotifications,
  removeSubscription,
  settle,
} from './outbox.ts';
import { postMessage, type PushResult } from './http.ts';

const LEASE = 'push';
const EVENTS = ['notification'] as const;
/** Tries of one message that fails otherwise than by 404, 410 or 429: the first and 3 more. */
export const MAX_ATTEMPTS = 4;
/** The waits before the 3 retries: growing, all within the minute a message has. */
export const RETRY_WAITS_MS = [2_000, 10_000, 30_000] as const;
/** The longest 429 wait honoured; a longer Retry-After is waited this long, then tried again. */
const MAX_RATE_LIMIT_WAIT_MS = 10 * 60_000;
/** Messages in flight at once. */
const IN_FLIGHT = 32;
/** Headers of every message (DECISIONS.md): an hour to live; `live` is urgent. */
export const PUSH_TTL_SECONDS = 3600;

export interface PushSenderOptions {
  db: Db;
  database: DbContext;
  clock: Clock;
  log: FastifyBaseLogger;
  baseUrl: string;
  subject: string;
  keys: () => Promise<VapidKeys>;
  timeoutMs: number;
  /** How often every instance looks for work. */
  pollMs?: number;
  /** The lease's lifetime, renewed at every look while there is work. */
  leaseMs?: number;
}

/** A 429's wait: `Retry-After` in seconds or as a date; 1 s when neither. */
export function retryAfterMs(headers: IncomingHttpHeaders, now: number): number {
  const raw = String(headers['retry-after'] ?? '').trim();
  let ms = /^\d+$/.test(raw) ? Number(raw) * 1000 : Date.parse(raw) - now;
  if (!(ms >= 0)) ms = 1000;
  return Math.min(ms, MAX_RATE_LIMIT_WAIT_MS);
}

/**
 * Delivers push messages from the event log (events/deliverer.ts), as Discord's sender does:
 * every instance looks every second for `notification` events past the `push` cursor and for
 * due messages; when there are some it takes or renews the `push` lease (sync/lease.ts), and
 * only the holder turns the events' new notifications into outbox rows (one per subscription
 * that asked for the kind, in the transaction that moves the cursor) and sends. Each message is
 * claimed in the database before it is posted, so nothing is sent twice even by two instances
 * that both think they hold the lease; a message claimed by a process that stopped is never
 * sent again. Up to IN_FLIGHT messages go at once; a 429 pauses its push service.
 */
export class PushSender {
  readonly holder = randomUUID();
  readonly #pollMs: number;
  readonly #leaseMs: number;
  #heldUntil = 0;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #looking: Promise<void> | null = null;
  #sending: Promise<void> | null = null;
  /** Push services waiting for a 429's Retry-After (origin → epoch ms). */
  readonly #pausedUntil = new Map<string, number>();
  #prunedAt = 0;
  readonly #outbox: OutageLog;

  constructor(private readonly opts: PushSenderOptions) {
    this.#outbox = new OutageLog(opts.log, 'push: reading the outbox');
    this.#pollMs = opts.pollMs ?? 1000;
    this.#leaseMs = opts.leaseMs ?? 10_000;
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
    await this.#sending?.catch(() => undefined);
    if (this.#heldUntil > 0) await releaseLease(this.opts.db, LEASE, this.holder).catch(() => undefined);
    this.#heldUntil = 0;
  }

  /** Takes the log's new notifications into the outbox and starts sending what is due (tests call it). */
  look(): Promise<void> {
    this.#looking ??= this.#look()
      .then(
        () => this.#outbox.worked(),
        (err: unknown) => this.#outbox.failed(err),
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

  /** Still to send (metrics): notification events past the cursor and the outbox's pending messages. */
  async backlog(): Promise<number> {
    const { db } = this.opts;
    return (await waitingEvents(db, LEASE, EVENTS)) + (await pendingMessages(db));
  }

  async #look(): Promise<void> {
    if (this.#stopped) return;
    const { db, clock } = this.opts;
    const now = clock.now();
    const iso = now.toISOString();
    const told = await hasNewEvents(db, LEASE, EVENTS);
    if (!told && !(await hasDue(db, iso))) return;
    if (!(await takeLease(db, LEASE, this.holder, now, this.#leaseMs))) {
      this.#heldUntil = 0;
      return;
    }
    this.#heldUntil = now.getTime() + this.#leaseMs;
    if (told) {
      while (
        (await takeFromLog(this.opts.database, LEASE, EVENTS, async (trx, events) => {
          await queueNotifications(trx, createdIn(events), iso);
        })) > 0
      );
    }
    const stale = await abandonStale(
      db,
      new Date(now.getTime() - this.opts.timeoutMs - 5000).toISOString(),
      iso,
    );
    if (stale > 0) {
      this.opts.log.warn(
        `push: ${stale} message(s) were being sent when their sender stopped; they may have arrived and are not sent again`,
      );
    }
    if (now.getTime() - this.#prunedAt > DAY / 24) {
      this.#prunedAt = now.getTime();
      await pruneFinished(db, new Date(now.getTime() - 7 * DAY).toISOString());
    }
    this.#sending ??= this.#send()
      .catch((err: unknown) => this.opts.log.warn({ err }, 'push: sending failed'))
      .finally(() => {
        this.#sending = null;
      });
  }

  /** Claims and sends due messages, IN_FLIGHT at a time, while this instance holds the lease. */
  async #send(): Promise<void> {
    const { db, clock } = this.opts;
    const keys = await this.opts.keys();
    const inFlight = new Set<Promise<void>>();
    for (;;) {
      const now = clock.now().getTime();
      // Stop well before the lease could pass to another instance.
      if (this.#stopped || now > this.#heldUntil - 2000) break;
      const room = IN_FLIGHT - inFlight.size;
      const claimed =
        room > 0 ? await claimDue(db, this.holder, new Date(now).toISOString(), room, this.#paused(now)) : [];
      if (claimed.length === 0 && inFlight.size === 0) break;
      for (const message of claimed) {
        const one: Promise<void> = this.#deliver(message, keys)
          .catch((err: unknown) => this.opts.log.warn({ err }, `push: message ${message.id} failed`))
          .finally(() => inFlight.delete(one));
        inFlight.add(one);
      }
      if (inFlight.size > 0 && (claimed.length === 0 || inFlight.size >= IN_FLIGHT))
        await Promise.race(inFlight);
    }
    await Promise.allSettled(inFlight);
  }

  #paused(now: number): string[] {
    return [...this.#pausedUntil].filter(([, until]) => until > now).map(([origin]) => origin);
  }

  async #deliver(message: Claimed, keys: VapidKeys): Promise<void> {
    const { baseUrl, subject, timeoutMs } = this.opts;
    const payload: PushPayload | null =
      message.payload !== null
        ? (JSON.parse(message.payload) as PushPayload)
        : notificationPayload(message, baseUrl);
    if (payload === null) {
      // Hidden or deleted before it went out: nothing is sent.
      return this.#settle(message, { state: 'skipped', error: 'the notification is no longer shown' });
    }
    const details = webpush.generateRequestDetails(
      { endpoint: message.endpoint, keys: { p256dh: message.p256dh, auth: message.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
        TTL: PUSH_TTL_SECONDS,
        urgency: payload.kind === 'live' ? 'high' : 'normal',
        contentEncoding: 'aes128gcm',
      },
    );
    const result = await postMessage(message.endpoint, details.headers, details.body, timeoutMs);
    await this.#answered(message, result);
  }

  async #answered(message: Claimed, result: PushResult): Promise<void> {
    const now = this.opts.clock.now();
    if (result.kind === 'no-answer') return this.#retry(message, `no answer (${result.error})`, now);
    const { status, headers } = result;
    if (status >= 200 && status < 300) return this.#settle(message, { state: 'sent', error: null });
    if (status === 404 || status === 410) {
      // The device unsubscribed or the subscription expired: it goes, with its messages.
      return removeSubscription(this.opts.db, message.subscription_id);
    }
    if (status === 429) {
      const wait = retryAfterMs(headers, now.getTime());
      this.#pausedUntil.set(message.origin, now.getTime() + wait);
      this.opts.log.info(`push: ${message.origin} asked to wait ${wait} ms`);
      return this.#settle(message, {
        state: 'pending',
        error: `the push service answered 429`,
        notBefore: new Date(now.getTime() + wait).toISOString(),
        countAttempt: false,
      });
    }
    return this.#retry(message, `the push service answered ${status}`, now);
  }

  #retry(message: Claimed, error: string, now: Date): Promise<void> {
    if (message.attempts >= MAX_ATTEMPTS) {
      this.opts.log.warn(`push: message ${message.id} dropped after ${message.attempts} tries: ${error}`);
      return this.#settle(message, { state: 'failed', error });
    }
    const wait = RETRY_WAITS_MS[Math.min(message.attempts, RETRY_WAITS_MS.length) - 1] ?? 30_000;
    return this.#settle(message, {
      state: 'pending',
      error,
      notBefore: new Date(now.getTime() + wait).toISOString(),
      countAttempt: true,
    });
  }

  #settle(message: Claimed, outcome: Outcome): Promise<void> {
    return settle(this.opts.db, message, outcome, this.opts.clock.now().toISOString());
  }
}
