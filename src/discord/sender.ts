import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { DbContext } from '../db/context.ts';
import type { Db } from '../db/schema.ts';
import { type Clock, DAY } from '../lib/clock.ts';
import { OutageLog } from '../lib/outage-log.ts';
import { SITE_NAME } from '../lib/site.ts';
import { releaseLease, takeLease } from '../sync/lease.ts';
import { hasNewEvents, takeFromLog, waitingEvents } from '../events/deliverer.ts';
import type { LoggedEvent } from '../events/log.ts';
import type { DiscordEvent } from '../shared/rules.ts';
import { type PostResult, postJson } from './http.ts';
import {
  abandonStale,
  claimNext,
  disableWebhook,
  dueWebhooks,
  type EventEmbed,
  pendingDeliveries,
  pruneFinished,
  queueDeliveries,
  settle,
} from './queries.ts';

const LEASE = 'discord';
/** A send gives up waiting for Discord's answer after this long. */
export const SEND_TIMEOUT_MS = 10_000;
/** Tries of one delivery that fails otherwise than by 429, 404 or 401: the first and 3 more. */
export const MAX_ATTEMPTS = 4;
/** The longest wait a 429 is honoured for; a longer one is waited this long, then tried again. */
const MAX_RATE_LIMIT_WAIT_MS = 10 * 60_000;

export interface SenderOptions {
  db: Db;
  /** The database's context, for the writes that take messages from the event log. */
  database: DbContext;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Makes the embeds' page paths absolute. */
  baseUrl: string;
  /** How often every instance looks for due deliveries. */
  pollMs?: number;
  /** The lease's lifetime, renewed at every look while there is work. */
  leaseMs?: number;
  timeoutMs?: number;
}

const DISCORD_EVENTS = ['discord'] as const;

/** Queues the log's Discord messages, in the log's order. */
async function queueFromLog(trx: Db, events: LoggedEvent[], now: string): Promise<void> {
  for (const event of events) {
    const { kind, embed } = JSON.parse(event.data) as { kind: DiscordEvent; embed: EventEmbed };
    await queueDeliveries(trx, kind, [embed], now);
  }
}

/** The body Discord's "execute webhook" takes (DECISIONS.md "Reaching out"). */
export function discordBody(embed: EventEmbed, baseUrl: string): string {
  const { path, ...rest } = embed;
  return JSON.stringify({
    username: SITE_NAME,
    embeds: [
      {
        title: rest.title,
        url: baseUrl + path,
        description: rest.description,
        color: rest.color,
        timestamp: rest.timestamp,
      },
    ],
  });
}

/** Seconds from a 429: the JSON body's `retry_after`, else `Retry-After`; 1 s when neither. */
export function retryAfterMs(headers: IncomingHttpHeaders, body: string): number {
  let seconds = Number.NaN;
  try {
    const parsed = JSON.parse(body) as { retry_after?: unknown };
    if (typeof parsed.retry_after === 'number') seconds = parsed.retry_after;
  } catch {
    // not JSON: the header decides
  }
  if (!(seconds >= 0)) seconds = Number(headers['retry-after']);
  if (!(seconds >= 0)) seconds = 1;
  return Math.min(Math.ceil(seconds * 1000), MAX_RATE_LIMIT_WAIT_MS);
}

/** Discord's message from an error answer, short, or the status alone. */
function reasonOf(status: number, body: string): string {
  let message = '';
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string') message = parsed.message.slice(0, 200);
  } catch {
    // not JSON
  }
  return message ? `Discord answered ${status}: ${message}` : `Discord answered ${status}`;
}

/** The pause before try `attempt + 1` after an ordinary failure: 1, 2, 4 seconds. */
const backoffMs = (attempt: number) => 1000 * 2 ** (attempt - 1);

/**
 * Delivers Discord's messages from the event log (events/deliverer.ts). Every instance looks
 * every second for messages in the log past the `discord` cursor and for due deliveries (two
 * reads); when there are some, it takes or renews the `discord` lease (sync/lease.ts), and only
 * the holder queues the log's messages into the outbox (one row per webhook, in the
 * transaction that moves the cursor) and sends. Each webhook is a lane: its deliveries go one at a time, oldest first, while
 * different webhooks go side by side. Each delivery is claimed in the database before it is
 * posted (claimNext), so nothing is sent twice even by two instances that both think they
 * hold the lease. Requests never wait for any of this: it runs after their commits.
 */
export class DiscordSender {
  readonly holder = randomUUID();
  readonly #pollMs: number;
  readonly #leaseMs: number;
  readonly #timeoutMs: number;
  #heldUntil = 0;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #looking: Promise<void> | null = null;
  readonly #lanes = new Map<number, Promise<void>>();
  /** Webhooks waiting for a rate limit (epoch ms); key 0 is Discord's global limit. */
  readonly #pausedUntil = new Map<number, number>();
  #prunedAt = 0;
  /** Reading the outbox, every second: its failures logged once, and its recovery. */
  readonly #outbox: OutageLog;

  constructor(private readonly opts: SenderOptions) {
    this.#outbox = new OutageLog(opts.log, 'discord: reading the outbox');
    this.#pollMs = opts.pollMs ?? 1000;
    this.#leaseMs = opts.leaseMs ?? 10_000;
    this.#timeoutMs = opts.timeoutMs ?? SEND_TIMEOUT_MS;
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
    await Promise.allSettled(this.#lanes.values());
    if (this.#heldUntil > 0) await releaseLease(this.opts.db, LEASE, this.holder).catch(() => undefined);
    this.#heldUntil = 0;
  }

  /** Looks for due deliveries and starts a lane for each webhook that has some (tests call it). */
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

  /** Still to send (metrics): Discord's events past its cursor and the outbox's pending messages. */
  async backlog(): Promise<number> {
    const { db } = this.opts;
    return (await waitingEvents(db, LEASE, DISCORD_EVENTS)) + (await pendingDeliveries(db));
  }

  /** Resolves when no lane is sending (tests). */
  async idle(): Promise<void> {
    while (this.#lanes.size > 0) await Promise.allSettled(this.#lanes.values());
  }

  async #look(): Promise<void> {
    if (this.#stopped) return;
    const { db, clock } = this.opts;
    const now = clock.now();
    let due = await dueWebhooks(db, now.toISOString());
    const told = await hasNewEvents(db, LEASE, DISCORD_EVENTS);
    if (due.length === 0 && !told) return;
    if (!(await takeLease(db, LEASE, this.holder, now, this.#leaseMs))) {
      this.#heldUntil = 0;
      return;
    }
    this.#heldUntil = now.getTime() + this.#leaseMs;
    const iso = now.toISOString();
    if (told) {
      // From the log to the outbox: each message queued once, for the webhooks that asked for it.
      while (
        (await takeFromLog(this.opts.database, LEASE, DISCORD_EVENTS, (trx, events) =>
          queueFromLog(trx, events, iso),
        )) > 0
      );
      due = await dueWebhooks(db, iso);
    }
    const stale = await abandonStale(db, new Date(now.getTime() - this.#timeoutMs - 5000).toISOString(), iso);
    if (stale > 0) {
      this.opts.log.warn(
        `discord: ${stale} message(s) were being sent when their sender stopped; they may have arrived and are not sent again`,
      );
    }
    if (now.getTime() - this.#prunedAt > DAY / 24) {
      this.#prunedAt = now.getTime();
      await pruneFinished(db, new Date(now.getTime() - 7 * DAY).toISOString());
    }
    for (const webhookId of due) {
      if (this.#lanes.has(webhookId) || this.#paused(webhookId, now.getTime())) continue;
      const lane = this.#lane(webhookId)
        .catch((err: unknown) => this.opts.log.warn({ err }, `discord: webhook ${webhookId} failed`))
        .finally(() => this.#lanes.delete(webhookId));
      this.#lanes.set(webhookId, lane);
    }
  }

  #paused(webhookId: number, now: number): boolean {
    return (this.#pausedUntil.get(webhookId) ?? 0) > now || (this.#pausedUntil.get(0) ?? 0) > now;
  }

  /** Sends the webhook's due deliveries one after the other while this instance holds the lease. */
  async #lane(webhookId: number): Promise<void> {
    const { db, clock } = this.opts;
    for (;;) {
      const now = clock.now().getTime();
      // Stop well before the lease could pass to another instance.
      if (this.#stopped || now > this.#heldUntil - 2000 || this.#paused(webhookId, now)) return;
      const claimed = await claimNext(db, webhookId, this.holder, new Date(now).toISOString());
      if (!claimed) return;
      const payload = JSON.parse(claimed.payload) as EventEmbed;
      const result = await postJson(claimed.url, discordBody(payload, this.opts.baseUrl), this.#timeoutMs);
      await this.#settle(webhookId, claimed.id, claimed.attempts, result);
    }
  }

  async #settle(webhookId: number, id: number, attempts: number, result: PostResult): Promise<void> {
    const { db, clock, log } = this.opts;
    const now = clock.now();
    const iso = now.toISOString();
    const label = `discord: webhook ${webhookId}, message ${id}`;
    if (result.kind === 'no-answer') {
      if (result.sent) {
        // The request left and no answer came: it may have been posted. Never twice.
        log.warn(`${label}: no answer (${result.error}); it may have arrived, so it is not sent again`);
        return settle(db, id, { state: 'unknown', error: `no answer (${result.error})` }, iso);
      }
      return this.#retry(id, attempts, `could not reach Discord (${result.error})`, now);
    }
    const { status, headers, body } = result;
    if (status >= 200 && status < 300) {
      // Discord's bucket: with nothing left, wait for its reset before the next send.
      if (headers['x-ratelimit-remaining'] === '0') {
        const resetAfter = Number(headers['x-ratelimit-reset-after']);
        if (resetAfter > 0) this.#pausedUntil.set(webhookId, now.getTime() + Math.ceil(resetAfter * 1000));
      }
      return settle(db, id, { state: 'sent', error: null }, iso);
    }
    if (status === 429) {
      const wait = retryAfterMs(headers, body);
      const global = /"global"\s*:\s*true/.test(body) || headers['x-ratelimit-global'] === 'true';
      this.#pausedUntil.set(global ? 0 : webhookId, now.getTime() + wait);
      log.info(`${label}: rate limited by Discord, trying again in ${wait} ms`);
      return settle(
        db,
        id,
        {
          state: 'pending',
          error: reasonOf(status, body),
          notBefore: new Date(now.getTime() + wait).toISOString(),
          countAttempt: false,
        },
        iso,
      );
    }
    if (status === 404 || status === 401) {
      const reason = reasonOf(status, body);
      log.warn(`${label}: ${reason}; the webhook is disabled and nothing more is sent to it`);
      await settle(db, id, { state: 'failed', error: reason }, iso);
      return disableWebhook(db, webhookId, reason, iso);
    }
    return this.#retry(id, attempts, reasonOf(status, body), now);
  }

  async #retry(id: number, attempts: number, error: string, now: Date): Promise<void> {
    const iso = now.toISOString();
    if (attempts >= MAX_ATTEMPTS) {
      this.opts.log.warn(`discord: message ${id} dropped after ${attempts} tries: ${error}`);
      return settle(this.opts.db, id, { state: 'failed', error }, iso);
    }
    const notBefore = new Date(now.getTime() + backoffMs(attempts)).toISOString();
    return settle(this.opts.db, id, { state: 'pending', error, notBefore, countAttempt: true }, iso);
  }
}
