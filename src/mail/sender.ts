import type { MailConfig } from '../config/mail.ts';
import type { DbContext } from '../db/context.ts';
import { writeTransaction } from '../db/transaction.ts';
import type { Db } from '../db/schema.ts';
import type { Answer, OutboxChannel } from '../delivery/channel.ts';
import { DAY } from '../lib/clock.ts';
import { loadNodemailer } from '../lib/lazy-modules.ts';
import { MAIL_LIMITS } from '../shared/mail.ts';
import { dueFromLog, dueUsers, queueKinds } from './compose.ts';
import { DIGEST_BATCH, queueDigestBatch, weeksRatings } from './digest.ts';
import { type ClaimedMail, dueMail, loadMail, waitingMail } from './queries.ts';
import { renderMessage } from './render.ts';
import { digestSlot, digestWeek } from './schedule.ts';
import { tokenOf } from './tokens.ts';

/** An SMTP exchange gives up after this long without an answer. */
export const SEND_TIMEOUT_MS = 30_000;
/** Messages handed to the server side by side (nodemailer's pool keeps as many connections). */
const CONNECTIONS = 4;
/**
 * A busy service's pace (delivery/channel.ts): mail is not awaited by the minute, and each
 * message costs the service more than a push message (a body written, a MIME message made);
 * 10,000 digests still go within 17 minutes of a peak that lasts.
 */
export const MAIL_GIVE_WAY_PER_SECOND = 10;
/** A digest slot later than this is skipped (the service was down all Monday): never a stale digest. */
const DIGEST_LATE_MS = DAY;

/** The lease's lifetime: an SMTP exchange is slow, the lease outlives a few. */
export const MAIL_LEASE_MS = 30_000;
/** Sending stops this long before the lease could pass to another instance. */
export const MAIL_LEASE_MARGIN_MS = 5000;

export interface MailChannelOptions {
  /** Its own work (kinds, digest) is written in transactions. */
  database: DbContext;
  baseUrl: string;
  mail: MailConfig;
  /** The links' key (mail/tokens.ts). */
  key: string;
}

/** The waits before the retries after a 4xx or an unreachable server: 1, 2, 4 minutes. */
const RETRY_WAITS_MS = Array.from({ length: MAIL_LIMITS.attempts - 1 }, (_, i) => 60_000 * 2 ** i);

type Outcome = 'retry' | 'failed' | 'unknown';

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

/** The digest slot to work on: the last one, unless it is done or over a day late. */
async function openSlot(
  db: Db,
  mail: MailConfig,
  now: Date,
): Promise<{ slot: string; from: string; through_user: number } | null> {
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

/**
 * E-mail's own work besides the log, done by the lease's holder: the messages of kinds that
 * came due (each user's gathered notifications) and one batch of the open digest slot per
 * look, so the senders start while it is queued.
 */
function chores(opts: MailChannelOptions): NonNullable<OutboxChannel<ClaimedMail>['chores']> {
  const { database, mail, key } = opts;
  const { db } = database;
  return {
    async waiting(now) {
      return (
        (await dueUsers(db, now.toISOString(), 1)).length > 0 || (await openSlot(db, mail, now)) !== null
      );
    },
    async run(now) {
      const iso = now.toISOString();
      for (let users = await dueUsers(db, iso, 200); users.length > 0; users = await dueUsers(db, iso, 200)) {
        for (const userId of users)
          await writeTransaction(database, (trx) => queueKinds(trx, key, userId, now), 'none');
      }
      const slot = await openSlot(db, mail, now);
      if (!slot) return;
      // Queued as fast as it is sent: the next batch once fewer than a batch's worth wait, so the
      // outbox stays small and a busy service's slower sending slows the queueing too.
      if ((await waitingMail(db, DIGEST_BATCH)) >= DIGEST_BATCH) return;
      await db
        .insertInto('mail_digests')
        .values({ slot: slot.slot, finished_at: null })
        .onConflict((oc) => oc.column('slot').doNothing())
        .execute();
      const ratings = await weeksRatings(db, slot.from, slot.slot);
      await writeTransaction(database, (trx) => queueDigestBatch(trx, key, slot, ratings, iso), 'none');
    },
  };
}

/**
 * E-mail as a channel of the outbox deliverer (delivery/): the log's `notification`
 * events make their users' messages of kinds due (in the transaction that moves the cursor),
 * its chores queue them and the weekly digest (each once: mail_outbox's unique key), and
 * CONNECTIONS messages are handed to the SMTP server side by side. A 4xx or a server that
 * cannot be reached is tried again; a message whose address went is dropped.
 */
export function mailChannel(opts: MailChannelOptions): OutboxChannel<ClaimedMail> {
  const { baseUrl, key } = opts;
  // The transport's options with the address (`url`): in a second argument, the messages'
  // defaults, `pool` and the time limits were silently ignored (a new connection per message,
  // a greeting each, and nodemailer's 10-minute socket limit).
  const { createTransport, MailComposer } = loadNodemailer();
  const transport = createTransport({
    url: opts.mail.smtpUrl,
    pool: true,
    maxConnections: CONNECTIONS,
    connectionTimeout: SEND_TIMEOUT_MS,
    greetingTimeout: SEND_TIMEOUT_MS,
    socketTimeout: SEND_TIMEOUT_MS,
    ...(opts.mail.dkim ? { dkim: { ...opts.mail.dkim } } : {}),
  } as never);
  return {
    name: 'mail',
    table: 'mail_outbox',
    events: ['notification'],
    retryWaitsMs: RETRY_WAITS_MS,
    staleAfterMs: SEND_TIMEOUT_MS * 3,
    keptForMs: MAIL_LIMITS.sentKeptDays * DAY,
    inFlight: CONNECTIONS,
    giveWayPerSecond: MAIL_GIVE_WAY_PER_SECOND,
    oneAtATime: false,
    fromLog: (trx, events, now) => dueFromLog(trx, events, now.toISOString()),
    chores: chores(opts),
    due: (db, now, limit) => dueMail(db, now, limit),
    load: loadMail,
    async send(_db, m): Promise<Answer> {
      const address = m.kind === 'confirm' ? m.pending_email : m.email;
      if (address !== m.recipient) {
        return { kind: 'final', state: 'failed', error: 'the address was changed or removed', gone: true };
      }
      const payload = JSON.parse(m.payload) as { seed?: string; unsubscribe: string };
      const token = (seed: string) => encodeURIComponent(tokenOf(key, seed));
      const unsubscribe = `${baseUrl}/api/mail/unsubscribe?token=${token(payload.unsubscribe)}`;
      const confirm = payload.seed
        ? `${baseUrl}/api/account/email/confirm?token=${token(payload.seed)}`
        : null;
      const written = renderMessage(
        m.kind,
        payload,
        m.lang,
        { baseUrl, confirm, unsubscribe },
        opts.mail.timeZone,
      );
      try {
        // The message is made whole, then handed over as one piece: streamed, nodemailer wrote
        // each of its parts to the socket on its own, a system call and a wake-up of the
        // server per part.
        const message = new MailComposer({
          from: opts.mail.from,
          to: m.recipient,
          subject: written.subject,
          text: written.text,
          html: written.html,
          headers: {
            'List-Unsubscribe': `<${unsubscribe}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          },
        }).compile();
        await transport.sendMail({ envelope: message.getEnvelope(), raw: await message.build() });
        return { kind: 'sent' };
      } catch (err) {
        const e = err as { responseCode?: number; code?: string; message?: string };
        const error = `${e.code ?? 'error'}${e.responseCode ? ` ${e.responseCode}` : ''}: ${String(e.message ?? err).slice(0, 300)}`;
        const outcome = outcomeOf(err);
        return outcome === 'retry' ? { kind: 'retry', error } : { kind: 'final', state: outcome, error };
      }
    },
    close: () => transport.close(),
  };
}
