import type { Db, MailMessageKind } from '../db/schema.ts';
import { MAIL_KINDS, type MailDigest, type MailKind, type MailLang } from '../shared/mail.ts';

/** E-mail's rows (migration 028): settings, link tokens and the outbox. */

export const parseKinds = (raw: string): MailKind[] => MAIL_KINDS.filter((k) => raw.split(',').includes(k));

export const formatKinds = (kinds: readonly MailKind[]): string =>
  MAIL_KINDS.filter((k) => kinds.includes(k)).join(',');

export async function mailSettings(db: Db, userId: number) {
  return db.selectFrom('mail_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Creates the user's settings row when missing, then changes it. */
export async function changeSettings(
  db: Db,
  userId: number,
  change: Partial<{
    email: string | null;
    pending_email: string | null;
    kinds: string;
    digest: MailDigest;
    lang: MailLang;
    mailed_through: number;
  }>,
  now: string,
): Promise<void> {
  await db
    .insertInto('mail_settings')
    .values({ user_id: userId, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  await db
    .updateTable('mail_settings')
    .set({ ...change, updated_at: now })
    .where('user_id', '=', userId)
    .execute();
}

/** The user's newest notification id: a choice of kinds starts after it (nothing older is mailed). */
export async function lastNotificationId(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** When the user's confirmation messages since `since` were queued, oldest first (the day's limit). */
export async function confirmationsSince(db: Db, userId: number, since: string): Promise<string[]> {
  const rows = await db
    .selectFrom('mail_tokens')
    .select('created_at')
    .where('user_id', '=', userId)
    .where('purpose', '=', 'confirm')
    .where('created_at', '>', since)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => r.created_at);
}

export async function insertToken(
  db: Db,
  row: {
    token_hash: string;
    user_id: number;
    purpose: 'confirm' | 'unsubscribe';
    subject: string;
    created_at: string;
    expires_at: string | null;
  },
): Promise<number> {
  const inserted = await db.insertInto('mail_tokens').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function findToken(db: Db, hash: string, purpose: 'confirm' | 'unsubscribe') {
  return db
    .selectFrom('mail_tokens')
    .selectAll()
    .where('token_hash', '=', hash)
    .where('purpose', '=', purpose)
    .executeTakeFirst();
}

/** Confirmation links not used yet stop working (the address was removed or confirmed). */
export async function retireConfirmations(db: Db, userId: number, now: string): Promise<void> {
  await db
    .updateTable('mail_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', 'confirm')
    .where('used_at', 'is', null)
    .execute();
}

/** Queues a message once: a second with the same user and `dedupe` changes nothing (false). */
export async function queueMessage(
  db: Db,
  row: { user_id: number; kind: MailMessageKind; dedupe: string; recipient: string; payload: unknown },
  now: string,
): Promise<boolean> {
  const result = await db
    .insertInto('mail_outbox')
    .values({ ...row, payload: JSON.stringify(row.payload), not_before: now, created_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'dedupe']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return result !== undefined;
}

/** Messages not sent yet (due now or waiting for a retry). */
export async function pendingMessages(db: Db): Promise<number> {
  const row = await db
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function hasDueMessages(db: Db, now: string): Promise<boolean> {
  const row = await db
    .selectFrom('mail_outbox')
    .select('id')
    .where('state', '=', 'pending')
    .where('not_before', '<=', now)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Claims the oldest due message for `holder`: a conditional update, so of two senders that both
 * look, one gets it. The address must still be the user's (a confirmation's, still waiting);
 * a message whose address went is dropped. Null when none is due.
 */
export async function claimNext(db: Db, holder: string, now: string) {
  for (;;) {
    const next = await db
      .selectFrom('mail_outbox')
      .leftJoin('mail_settings', 'mail_settings.user_id', 'mail_outbox.user_id')
      .select([
        'mail_outbox.id',
        'mail_outbox.user_id',
        'mail_outbox.kind',
        'mail_outbox.recipient',
        'mail_outbox.payload',
        'mail_outbox.attempts',
        'mail_settings.email',
        'mail_settings.pending_email',
        'mail_settings.lang',
      ])
      .where('mail_outbox.state', '=', 'pending')
      .where('mail_outbox.not_before', '<=', now)
      .orderBy('mail_outbox.id')
      .limit(1)
      .executeTakeFirst();
    if (!next) return null;
    const address = next.kind === 'confirm' ? next.pending_email : next.email;
    if (address !== next.recipient) {
      await db
        .updateTable('mail_outbox')
        .set({ state: 'failed', last_error: 'the address was changed or removed', finished_at: now })
        .where('id', '=', next.id)
        .where('state', '=', 'pending')
        .execute();
      continue;
    }
    const claimed = await db
      .updateTable('mail_outbox')
      .set({ state: 'sending', claimed_by: holder, claimed_at: now, attempts: next.attempts + 1 })
      .where('id', '=', next.id)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 1) {
      return { ...next, attempts: next.attempts + 1, lang: next.lang ?? 'cs' };
    }
  }
}

/** Where a claimed message ends up after its send. */
export async function settle(
  db: Db,
  id: number,
  outcome:
    | { state: 'sent' | 'failed' | 'unknown'; error: string | null }
    | { state: 'pending'; error: string; notBefore: string },
  now: string,
): Promise<void> {
  const query = db.updateTable('mail_outbox').where('id', '=', id).where('state', '=', 'sending');
  if (outcome.state === 'pending') {
    await query
      .set({ state: 'pending', last_error: outcome.error, claimed_by: null, not_before: outcome.notBefore })
      .execute();
  } else {
    await query.set({ state: outcome.state, last_error: outcome.error, finished_at: now }).execute();
  }
}

/** Whether a message claimed before `cutoff` is still `sending` (abandonStale's work). */
export async function hasStale(db: Db, cutoff: string): Promise<boolean> {
  const row = await db
    .selectFrom('mail_outbox')
    .select('id')
    .where('state', '=', 'sending')
    .where('claimed_at', '<', cutoff)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Messages claimed before `cutoff` and still `sending` were being handed over by a process that
 * stopped: they may have arrived, so they are never sent again.
 */
export async function abandonStale(db: Db, cutoff: string, now: string): Promise<number> {
  const result = await db
    .updateTable('mail_outbox')
    .set({
      state: 'unknown',
      last_error: 'interrupted while sending: it may have arrived, so it is not sent again',
      finished_at: now,
    })
    .where('state', '=', 'sending')
    .where('claimed_at', '<', cutoff)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Finished messages older than `before` are forgotten (their `dedupe` keys are past use by then). */
export async function pruneFinished(db: Db, before: string): Promise<void> {
  await db
    .deleteFrom('mail_outbox')
    .where('state', 'in', ['sent', 'failed', 'unknown'])
    .where('finished_at', '<', before)
    .execute();
}

/** For the account export: the address, the one waiting, and what the user chose. */
export async function mailOf(db: Db, userId: number) {
  const row = await mailSettings(db, userId);
  return {
    email: row?.email ?? null,
    pending_email: row?.pending_email ?? null,
    kinds: parseKinds(row?.kinds ?? ''),
    digest: row?.digest ?? 'off',
    lang: row?.lang ?? null,
  };
}

/** The current-user answer's `email` and `email_pending`. */
export async function addressOf(
  db: Db,
  userId: number,
): Promise<{ email: string | null; email_pending: boolean }> {
  const row = await db
    .selectFrom('mail_settings')
    .select(['email', 'pending_email'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return { email: row?.email ?? null, email_pending: (row?.pending_email ?? null) !== null };
}
