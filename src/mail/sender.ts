import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailConfig } from '../config/mail.ts';
import type { DbContext } from '../db/context.ts';
import { writeTransaction } from '../db/transaction.ts';
import type { Db } from '../db/schema.ts';
import { hasNewEvents, takeFromLog, waitingEvents } from '../events/deliverer.ts';
import { type Clock, DAY } from '../lib/clock.ts';
import { OutageLog } from '../lib/outage-log.ts';
import { releaseLease, takeLease } from '../sync/lease.ts';
import { MAIL_LIMITS } from '../shared/mail.ts';
import { dueFromLog, dueUsers, queueDigestBatch, queueKinds, weeksRatings } from './compose.ts';
import {
  abandonStale,
  claimNext,
  hasDueMessages,
  hasStale,
  pendingMessages,
  pruneFinished,
  settle,
} from './queries.ts';
import { renderMessage } from './render.ts';
import { digestSlot, digestWeek } from './schedule.ts';
import { tokenOf } from './tokens.ts';

const LEASE = 'mail';
const EVENTS = ['notification'] as const;
/** An SMTP exchange gives up after this long without an answer. */
export const SEND_TIMEOUT_MS = 30_000;
/** Messages handed to the server side by side (nodemailer's pool keeps as many connections). */
const CONNECTIONS = 4;
/** A digest slot later than this is skipped (the service was down all Monday): never a stale digest. */
const DIGEST_LATE_MS = DAY;

export interface MailSenderOptions {
  db: Db;
  database: DbContext;
  clock: Clock;
  log: FastifyBaseLogger;
  baseUrl: string;
  mail: MailConfig;
  /** The links' key (mail/tokens.ts). */
  key: string;
  pollMs?: number;
  leaseMs?: number;
}

/** The pause before try `attempt + 1` after a 4xx or an unreachable server: 1, 2, 4 minutes. */
const backoffMs = (attempt: number) => 60_000 * 2 ** (attempt - 1);

type Outcome = 'sent' | 'retry' | 'failed' | 'unknown';

/**
 * How a send ended, from nodemailer's error: a 4xx answer, or a server that could not be
 * reached (the connection, its greeting, DNS), is tried again; a 5xx is final; anything else
 * may have happened after the message was handed over, so it is never sent again.
 */
export function outcomeOf(err: unknown): Outcome {
  const e = err as { responseCode?: number; code?: string; command?: string };
  if (typeof e.responseCode === 'number') {
    if (e.responseCode >= 400 && e.responseCode < 500) return 'retry';
    if (e.responseCode >= 500) return 'failed';
  }
  if (e.command === 'CONN' || e.code === 'ECONNECTION' || e.code === 'EDNS') return 'retry';
  return 'unknown';
}

/**
 * Sends e-mail from the event log (events/deliverer.ts), as the Discord sender does: every
 * instance looks every second for work (log events past the `mail` cursor, due messages of
 * kinds, a digest slot, due messages); when there is some it takes or renews the `mail` lease,
 * and only the holder turns notifications into due messages (in the transaction that moves the
 * cursor), queues the messages (each once: mail_outbox's unique key) and sends. Each message is
 * claimed in the database before it is handed to the SMTP server, so it is never sent twice,
 * even by two instances that both believe they hold the lease, or across a restart.
 */
export class MailSender {
  readonly holder = randomUUID();
  readonly #pollMs: number;
  readonly #leaseMs: number;
  #heldUntil = 0;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #looking: Promise<void> | null = null;
  readonly #workers = new Set<Promise<void>>();
  #prunedAt = 0;
  readonly #outbox: OutageLog;
  readonly #transport: Transporter;

  constructor(private readonly opts: MailSenderOptions) {
    this.#outbox = new OutageLog(opts.log, 'mail: reading the outbox');
    this.#pollMs = opts.pollMs ?? 1000;
    this.#leaseMs = opts.leaseMs ?? 30_000;
    this.#transport = nodemailer.createTransport(opts.mail.smtpUrl, {
      pool: true,
      maxConnections: CONNECTIONS,
      connectionTimeout: SEND_TIMEOUT_MS,
      greetingTimeout: SEND_TIMEOUT_MS,
      socketTimeout: SEND_TIMEOUT_MS,
      from: opts.mail.from,
      ...(opts.mail.dkim ? { dkim: { ...opts.mail.dkim } } : {}),
    } as never);
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
    await Promise.allSettled(this.#workers);
    this.#transport.close();
    if (this.#heldUntil > 0) await releaseLease(this.opts.db, LEASE, this.holder).catch(() => undefined);
    this.#heldUntil = 0;
  }

  /** Looks for work and starts the senders (tests call it). */
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
    while (this.#workers.size > 0) await Promise.allSettled([...this.#workers]);
  }

  /** Still to send (metrics): notification events past the cursor and messages not sent yet. */
  async backlog(): Promise<number> {
    const { db } = this.opts;
    return (await waitingEvents(db, LEASE, EVENTS)) + (await pendingMessages(db));
  }

  /** The digest slot to work on: the last one, unless it is done or over a day late. */
  async #openSlot(now: Date): Promise<{ slot: string; from: string; through_user: number } | null> {
    const { db, mail } = this.opts;
    const slot = digestSlot(now, mail.timeZone);
    if (now.getTime() - slot.getTime() > DIGEST_LATE_MS) return null;
    const iso = slot.toISOString();
    const row = await db.selectFrom('mail_digests').selectAll().where('slot', '=', iso).executeTakeFirst();
    if (row?.finished_at) return null;
    return {
      slot: iso,
      from: digestWeek(slot, mail.timeZone).from.toISOString(),
      through_user: row?.through_user ?? 0,
    };
  }

  async #look(): Promise<void> {
    if (this.#stopped) return;
    const { db, clock, database, key } = this.opts;
    const now = clock.now();
    const iso = now.toISOString();
    const told = await hasNewEvents(db, LEASE, EVENTS);
    const due = (await dueUsers(db, iso, 1)).length > 0;
    const slot = await this.#openSlot(now);
    const cutoff = new Date(now.getTime() - SEND_TIMEOUT_MS * 3).toISOString();
    if (!told && !due && !slot && !(await hasDueMessages(db, iso)) && !(await hasStale(db, cutoff))) return;
    if (!(await takeLease(db, LEASE, this.holder, now, this.#leaseMs))) {
      this.#heldUntil = 0;
      return;
    }
    this.#heldUntil = now.getTime() + this.#leaseMs;
    if (told) {
      while ((await takeFromLog(database, LEASE, EVENTS, (trx, events) => dueFromLog(trx, events, iso))) > 0);
    }
    for (let users = await dueUsers(db, iso, 200); users.length > 0; users = await dueUsers(db, iso, 200)) {
      for (const userId of users)
        await writeTransaction(database, (trx) => queueKinds(trx, key, userId, now), 'none');
    }
    if (slot) await this.#digest(slot, iso);
    const stale = await abandonStale(db, cutoff, iso);
    if (stale > 0) {
      this.opts.log.warn(
        `mail: ${stale} message(s) were being sent when their sender stopped; they may have arrived and are not sent again`,
      );
    }
    if (now.getTime() - this.#prunedAt > DAY / 24) {
      this.#prunedAt = now.getTime();
      await pruneFinished(db, new Date(now.getTime() - 30 * DAY).toISOString());
    }
    while (this.#workers.size < CONNECTIONS) {
      const worker = this.#work()
        .catch((err: unknown) => this.opts.log.warn({ err }, 'mail: sending failed'))
        .finally(() => this.#workers.delete(worker));
      this.#workers.add(worker);
    }
  }

  /** Queues one batch of a digest slot per look, so the senders start while it is queued. */
  async #digest(slot: { slot: string; from: string; through_user: number }, iso: string): Promise<void> {
    const { db, database, key } = this.opts;
    await db
      .insertInto('mail_digests')
      .values({ slot: slot.slot, finished_at: null })
      .onConflict((oc) => oc.column('slot').doNothing())
      .execute();
    const ratings = await weeksRatings(db, slot.from, slot.slot);
    await writeTransaction(database, (trx) => queueDigestBatch(trx, key, slot, ratings, iso), 'none');
  }

  /** Sends due messages one after another while this instance holds the lease. */
  async #work(): Promise<void> {
    const { db, clock } = this.opts;
    for (;;) {
      const now = clock.now().getTime();
      if (this.#stopped || now > this.#heldUntil - 5000) return;
      const claimed = await claimNext(db, this.holder, new Date(now).toISOString());
      if (!claimed) return;
      await this.#send(claimed);
    }
  }

  async #send(m: NonNullable<Awaited<ReturnType<typeof claimNext>>>): Promise<void> {
    const { db, clock, baseUrl, key, log } = this.opts;
    const payload = JSON.parse(m.payload) as { seed?: string; unsubscribe: string };
    const token = (seed: string) => encodeURIComponent(tokenOf(key, seed));
    const unsubscribe = `${baseUrl}/api/mail/unsubscribe?token=${token(payload.unsubscribe)}`;
    const confirm = payload.seed ? `${baseUrl}/api/account/email/confirm?token=${token(payload.seed)}` : null;
    const written = renderMessage(m.kind, payload, m.lang, { baseUrl, confirm, unsubscribe });
    let outcome: Outcome = 'sent';
    let error = '';
    try {
      await this.#transport.sendMail({
        to: m.recipient,
        subject: written.subject,
        text: written.text,
        html: written.html,
        headers: {
          'List-Unsubscribe': `<${unsubscribe}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      });
    } catch (err) {
      outcome = outcomeOf(err);
      const e = err as { responseCode?: number; code?: string; message?: string };
      error = `${e.code ?? 'error'}${e.responseCode ? ` ${e.responseCode}` : ''}: ${String(e.message ?? err).slice(0, 300)}`;
    }
    const now = clock.now();
    const iso = now.toISOString();
    if (outcome === 'retry' && m.attempts < MAIL_LIMITS.attempts) {
      log.info(`mail: message ${m.id} not taken (${error}); trying again`);
      const notBefore = new Date(now.getTime() + backoffMs(m.attempts)).toISOString();
      return settle(db, m.id, { state: 'pending', error, notBefore }, iso);
    }
    if (outcome !== 'sent')
      log.warn(
        `mail: message ${m.id} ${outcome === 'unknown' ? 'may not have arrived' : 'dropped'}: ${error}`,
      );
    return settle(db, m.id, { state: outcome === 'retry' ? 'failed' : outcome, error: error || null }, iso);
  }
}
