import { inIds } from '../db/dialect.ts';
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

type Queued = { user_id: number; kind: MailMessageKind; dedupe: string; recipient: string; payload: unknown };

/** Queues a message once: a second with the same user and `dedupe` changes nothing (false). */
export async function queueMessage(db: Db, row: Queued, now: string): Promise<boolean> {
  return (await queueMessages(db, [row], now)) > 0;
}

/** Queues messages, each once (as queueMessage); answers how many were new. */
export async function queueMessages(db: Db, rows: Queued[], now: string): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await db
    .insertInto('mail_outbox')
    .values(
      rows.map((row) => ({ ...row, payload: JSON.stringify(row.payload), not_before: now, created_at: now })),
    )
    .onConflict((oc) => oc.columns(['user_id', 'dedupe']).doNothing())
    .returning('id')
    .execute();
  return result.length;
}

/**
 * Due messages, the longest due first (one lane: they go side by side), in the order of the
 * outbox's due index, so a claim reads as many rows as it takes (push/outbox.ts `dueQuery`).
 */
export const dueMailQuery = (db: Db, now: string, limit: number) =>
  db
    .selectFrom('mail_outbox')
    .select('id')
    .where('state', '=', 'pending')
    .where('not_before', '<=', now)
    .orderBy('not_before')
    .orderBy('id')
    .limit(limit);

export async function dueMail(db: Db, now: string, limit: number) {
  const rows = await dueMailQuery(db, now, limit).execute();
  return rows.map((r) => ({ id: r.id, lane: '' }));
}

/** Messages waiting to be sent, counted up to `limit` (one indexed read). */
export async function waitingMail(db: Db, limit: number): Promise<number> {
  const rows = await db
    .selectFrom('mail_outbox')
    .select('id')
    .where('state', '=', 'pending')
    .limit(limit)
    .execute();
  return rows.length;
}

/**
 * Claimed messages with the user's address and language: the address must still be the
 * user's (a confirmation's, still waiting) when it is sent (mail/sender.ts).
 */
export async function loadMail(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  const rows = await db
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
    .where(inIds(db, 'mail_outbox.id', ids))
    .orderBy('mail_outbox.id')
    .execute();
  return rows.map((m) => ({ ...m, lang: m.lang ?? 'cs' }));
}

export type ClaimedMail = Awaited<ReturnType<typeof loadMail>>[number];

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
