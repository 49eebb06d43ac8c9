import type { AppContext } from '../context.ts';
import type { Db } from '../db/schema.ts';
import { lockRow } from '../db/dialect.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import { DAY } from '../lib/clock.ts';
import { MAIL_LIMITS, type MailDigest, type MailKind, type MailLang } from '../shared/mail.ts';
import {
  changeSettings,
  confirmationsSince,
  findToken,
  formatKinds,
  insertToken,
  lastNotificationId,
  mailSettings,
  parseKinds,
  queueMessage,
  retireConfirmations,
} from './queries.ts';
import { hashToken, newSeed, tokenOf } from './tokens.ts';

/**
 * The operations of a user's e-mail (DECISIONS.md "Fifth wave" → "E-mail"): the address and
 * its confirmation, the kinds and the digest, the one-click unsubscription. Each is one write;
 * messages are queued in it (mail_outbox) and sent by the mail sender after the commit.
 */

/**
 * Sets the address to confirm (a message with a link valid 24 hours), or removes the address
 * (`null`). At most 5 confirmation messages per user in 24 hours: counted and written one writer
 * per user at a time (the user's row locked on PostgreSQL; SQLite writes one at a time).
 */
export async function setAddress(
  ctx: AppContext,
  key: string,
  userId: number,
  email: string | null,
  lang: MailLang | null,
): Promise<void> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  await writeTransaction(
    ctx.database,
    async (trx) => {
      await lockRow(trx, 'users', userId);
      if (email === null) {
        await changeSettings(trx, userId, { email: null, pending_email: null }, at);
        await retireConfirmations(trx, userId, at);
        return;
      }
      const since = new Date(now.getTime() - DAY).toISOString();
      const sent = await confirmationsSince(trx, userId, since);
      if (sent.length >= MAIL_LIMITS.confirmsPerDay) {
        // Retry-After: when the oldest of the day's confirmations leaves the 24 hours.
        const free = Date.parse(sent[sent.length - MAIL_LIMITS.confirmsPerDay] ?? since) + DAY;
        throw fail('too_many_requests', {
          'retry-after': String(Math.max(1, Math.ceil((free - now.getTime()) / 1000))),
        });
      }
      await retireConfirmations(trx, userId, at);
      const seed = newSeed();
      const tokenId = await insertToken(trx, {
        token_hash: hashToken(tokenOf(key, seed)),
        user_id: userId,
        purpose: 'confirm',
        subject: email,
        created_at: at,
        expires_at: new Date(now.getTime() + MAIL_LIMITS.confirmValidMs).toISOString(),
      });
      await changeSettings(trx, userId, { pending_email: email, ...(lang ? { lang } : {}) }, at);
      const unsubscribe = await unsubscribeSeed(trx, key, userId, confirmSubject(email), at);
      await queueMessage(
        trx,
        {
          user_id: userId,
          kind: 'confirm',
          dedupe: `confirm:${tokenId}`,
          recipient: email,
          payload: { seed, unsubscribe },
        },
        at,
      );
    },
    'none',
  );
}

/**
 * The subject of a confirmation message's unsubscribe token: the address it went to, which its
 * link drops while that address still waits (a token from before names none: `confirm`).
 */
const confirmSubject = (email: string) => `confirm:${email}`;
export const isConfirmSubject = (subject: string) => subject === 'confirm' || subject.startsWith('confirm:');

/**
 * A token that turns `subject` off (kinds, `digest`, or `confirm`: the address waiting for its
 * confirmation), for a message's List-Unsubscribe; answers the seed the message keeps.
 */
export async function unsubscribeSeed(
  trx: Db,
  key: string,
  userId: number,
  subject: string,
  at: string,
): Promise<string> {
  const seed = newSeed();
  await unsubscribeTokens(trx, key, [{ user_id: userId, seed }], subject, at);
  return seed;
}

/** The tokens of unsubscribeSeed for several users at once (a digest's batch), in one statement. */
export async function unsubscribeTokens(
  trx: Db,
  key: string,
  seeded: { user_id: number; seed: string }[],
  subject: string,
  at: string,
): Promise<void> {
  if (seeded.length === 0) return;
  await trx
    .insertInto('mail_tokens')
    .values(
      seeded.map((u) => ({
        token_hash: hashToken(tokenOf(key, u.seed)),
        user_id: u.user_id,
        purpose: 'unsubscribe' as const,
        subject,
        created_at: at,
        expires_at: null,
      })),
    )
    .execute();
}

/**
 * The link from the confirmation message: the address waiting becomes the user's. A token that
 * is unknown, used, expired, or for an address no longer waiting: 400 `invalid_link`. Answers
 * the user's language, for the page that says so.
 */
export async function confirmAddress(ctx: AppContext, token: string): Promise<MailLang> {
  const at = ctx.clock.now().toISOString();
  return writeTransaction(
    ctx.database,
    async (trx) => {
      const row = await findToken(trx, hashToken(token), 'confirm');
      if (!row || row.used_at !== null || row.expires_at === null || row.expires_at <= at) {
        throw fail('invalid_link');
      }
      const settings = await mailSettings(trx, row.user_id);
      if (!settings || settings.pending_email !== row.subject) throw fail('invalid_link');
      await trx.updateTable('mail_tokens').set({ used_at: at }).where('id', '=', row.id).execute();
      await changeSettings(
        trx,
        row.user_id,
        {
          email: row.subject,
          pending_email: null,
          // Kinds chosen before the address: what happened before it was confirmed is not mailed.
          mailed_through: await lastNotificationId(trx, row.user_id),
        },
        at,
      );
      return settings.lang;
    },
    'none',
  );
}

export async function mailChoice(
  ctx: AppContext,
  userId: number,
): Promise<{ kinds: MailKind[]; digest: MailDigest }> {
  const row = await mailSettings(ctx.db, userId);
  return { kinds: parseKinds(row?.kinds ?? ''), digest: row?.digest ?? 'off' };
}

/** Sets the kinds and the digest; newly chosen kinds start after the user's last notification. */
export async function setMailChoice(
  ctx: AppContext,
  userId: number,
  choice: { kinds: MailKind[]; digest: MailDigest },
  lang: MailLang | null,
): Promise<void> {
  const at = ctx.clock.now().toISOString();
  await writeTransaction(
    ctx.database,
    async (trx) => {
      const before = await mailSettings(trx, userId);
      const starting = parseKinds(before?.kinds ?? '').length === 0 && choice.kinds.length > 0;
      await changeSettings(
        trx,
        userId,
        {
          kinds: formatKinds(choice.kinds),
          digest: choice.digest,
          ...(lang ? { lang } : {}),
          ...(starting ? { mailed_through: await lastNotificationId(trx, userId) } : {}),
        },
        at,
      );
    },
    'none',
  );
}

/**
 * The one-click unsubscription (RFC 8058): turns off what the message's token names. Repeating
 * it changes nothing more; an unknown token: 400 `invalid_link`.
 */
export async function unsubscribe(ctx: AppContext, token: string): Promise<MailLang> {
  const at = ctx.clock.now().toISOString();
  return writeTransaction(
    ctx.database,
    async (trx) => {
      const row = await findToken(trx, hashToken(token), 'unsubscribe');
      if (!row) throw fail('invalid_link');
      const settings = await mailSettings(trx, row.user_id);
      if (!settings) throw fail('invalid_link');
      if (row.subject === 'digest') await changeSettings(trx, row.user_id, { digest: 'off' }, at);
      else if (isConfirmSubject(row.subject)) {
        // An older confirmation's link does not drop an address asked for since (a users' walk).
        if (row.subject === 'confirm' || row.subject === confirmSubject(settings.pending_email ?? '')) {
          await changeSettings(trx, row.user_id, { pending_email: null }, at);
          await retireConfirmations(trx, row.user_id, at);
        }
      } else {
        const off = parseKinds(row.subject);
        const kept = parseKinds(settings.kinds).filter((k) => !off.includes(k));
        await changeSettings(trx, row.user_id, { kinds: formatKinds(kept) }, at);
      }
      if (row.used_at === null) {
        await trx.updateTable('mail_tokens').set({ used_at: at }).where('id', '=', row.id).execute();
      }
      return settings.lang;
    },
    'none',
  );
}
