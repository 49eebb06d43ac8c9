import type { Db } from '../db/schema.ts';
import type { LoggedEvent } from '../events/log.ts';
import { streamerPath } from '../shared/rules.ts';
import { MAIL_LIMITS, type MailKind } from '../shared/mail.ts';
import { unsubscribeSeed } from './account.ts';
import { parseKinds, queueMessage } from './queries.ts';

/**
 * What the mail sender queues (mail/sender.ts), in its transactions: the messages of kinds, as
 * the event log tells of notifications, and the weekly digest. A message is a row of
 * `mail_outbox` whose payload says what it tells; render.ts writes it in the user's language.
 */

export interface KindsItem {
  kind: MailKind;
  at: string;
  streamer: string;
  path: string;
  /** Who wrote the reply or mention; null for `live` and `rated`. */
  actor: string | null;
  /** The reply's or mention's words as they were when queued (quoteOf); absent from older rows. */
  quote?: string | null;
}

export interface DigestPayload {
  from: string;
  to: string;
  ratings: { streamer: string; path: string; total: number }[];
  streams: { streamer: string; path: string; at: string; title: string }[];
  replies: { streamer: string; path: string; at: string; actor: string | null }[];
  unsubscribe: string;
}

export interface KindsPayload {
  items: KindsItem[];
  /** Notifications the message left out (it lists at most ITEMS_MAX). */
  more: number;
  unsubscribe: string;
}

export interface ConfirmPayload {
  seed: string;
  unsubscribe: string;
}

export const ITEMS_MAX = 20;

/**
 * What a reply or mention said, as its message quotes it (the reader sees the words without
 * opening the page, as Remark42's and Artalk's notifications do): on one line, at most
 * MAIL_LIMITS.quoteMax characters, cut at a word with an ellipsis. It is a comment shown to
 * everyone (the notification's `shown`); later edits are not followed.
 */
export function quoteOf(body: string): string {
  const flat = body.replace(/\s+/gu, ' ').trim();
  const chars = [...flat];
  if (chars.length <= MAIL_LIMITS.quoteMax) return flat;
  const cut = chars.slice(0, MAIL_LIMITS.quoteMax).join('');
  const word = cut.lastIndexOf(' ');
  return `${(word > MAIL_LIMITS.quoteMax / 2 ? cut.slice(0, word) : cut).trimEnd()}…`;
}

/**
 * From the log to the settings: a `notification` event for a user who has kinds and a
 * confirmed address makes a message due, now, or when the last one's 10 quiet minutes end
 * (events that come meanwhile find it due already: they are gathered into it).
 */
export async function dueFromLog(trx: Db, events: LoggedEvent[], now: string): Promise<void> {
  const users = [...new Set(events.flatMap((e) => (e.user_id === null ? [] : [e.user_id])))];
  for (let i = 0; i < users.length; i += 500) {
    const some = users.slice(i, i + 500);
    const waiting = trx
      .updateTable('mail_settings')
      .where('user_id', 'in', some)
      .where('due_at', 'is', null)
      .where('email', 'is not', null)
      .where('kinds', '!=', '');
    await waiting
      .set({ due_at: now })
      .where((eb) => eb.or([eb('quiet_until', 'is', null), eb('quiet_until', '<=', now)]))
      .execute();
    await waiting
      .set((eb) => ({ due_at: eb.ref('quiet_until') }))
      .where('quiet_until', '>', now)
      .execute();
  }
}

/** Users whose message of kinds is due. */
export async function dueUsers(db: Db, now: string, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('mail_settings')
    .select('user_id')
    .where('due_at', '<=', now)
    .orderBy('due_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.user_id);
}

/**
 * One user's due message of kinds: the notifications of their kinds since the last message
 * (shown ones: a hidden comment's reply tells nobody), queued once (its dedupe key is the last
 * notification it tells of), then 10 quiet minutes. Nothing new: nothing is queued.
 */
export async function queueKinds(trx: Db, key: string, userId: number, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const s = await trx
    .selectFrom('mail_settings')
    .select(['email', 'kinds', 'mailed_through', 'due_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!s || s.due_at === null || s.due_at > at) return false;
  const kinds = parseKinds(s.kinds);
  const rows =
    s.email === null || kinds.length === 0
      ? []
      : await trx
          .selectFrom('notifications')
          .innerJoin('streamers', 'streamers.id', 'notifications.streamer_id')
          .leftJoin('comments', 'comments.id', 'notifications.comment_id')
          .leftJoin('users as author', 'author.id', 'comments.user_id')
          .select([
            'notifications.id',
            'notifications.kind',
            'notifications.created_at',
            'notifications.streamer_id',
            'notifications.comment_id',
            'streamers.name',
            'comments.author',
            'comments.body',
            'author.display_name',
          ])
          .where('notifications.user_id', '=', userId)
          .where('notifications.id', '>', s.mailed_through)
          .where('notifications.kind', 'in', kinds)
          .where('notifications.shown', '=', 1)
          .orderBy('notifications.id')
          .execute();
  if (rows.length === 0 || s.email === null) {
    await trx.updateTable('mail_settings').set({ due_at: null }).where('user_id', '=', userId).execute();
    return false;
  }
  const last = rows[rows.length - 1]?.id ?? s.mailed_through;
  const told = [...new Set(rows.map((r) => r.kind as MailKind))];
  const items: KindsItem[] = rows.slice(0, ITEMS_MAX).map((r) => {
    const said = (r.kind === 'reply' || r.kind === 'mention') && r.comment_id !== null;
    return {
      kind: r.kind as MailKind,
      at: r.created_at,
      streamer: r.name,
      path: streamerPath(r.streamer_id, r.name) + (said ? `#c${r.comment_id}` : ''),
      actor: said ? (r.display_name ?? r.author ?? null) : null,
      quote: said && r.body !== null ? quoteOf(r.body) : null,
    };
  });
  const payload: KindsPayload = {
    items,
    more: rows.length - items.length,
    unsubscribe: await unsubscribeSeed(trx, key, userId, told.join(','), at),
  };
  await queueMessage(
    trx,
    { user_id: userId, kind: 'kinds', dedupe: `kinds:${last}`, recipient: s.email, payload },
    at,
  );
  await trx
    .updateTable('mail_settings')
    .set({
      mailed_through: last,
      due_at: null,
      quiet_until: new Date(now.getTime() + MAIL_LIMITS.kindsGapMs).toISOString(),
    })
    .where('user_id', '=', userId)
    .execute();
  return true;
}
