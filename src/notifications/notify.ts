import type { Db } from '../db/schema.ts';
import { type LiveEvent, publish } from '../db/event-log.ts';
import { mentionedLogins } from '../shared/notifications.ts';
import { speakerOfStreamer } from '../catalogue/speaks-for.ts';
import {
  type Created,
  insertLiveNotifications,
  insertNotifications,
  mentionRecipients,
  type NewNotification,
  setShown,
} from './queries.ts';

/**
 * The notifications a change causes (DECISIONS.md "Notifications"), each written inside the
 * transaction of that change, with the live events it causes (db/event-log.ts): a new visible
 * comment, a comment gone, and each recipient's unread count.
 */

const unreadChanged = (users: number[]): LiveEvent[] =>
  users.map((user_id) => ({ type: 'notification', user_id }));

/** Each recipient's unread count moved, with the notifications created for them (push/ sends those). */
function created(rows: Created[], others: number[] = []): LiveEvent[] {
  const byUser = new Map<number, number[]>();
  for (const r of rows) {
    const ids = byUser.get(r.user_id);
    if (ids) ids.push(r.id);
    else byUser.set(r.user_id, [r.id]);
  }
  return [
    ...[...byUser].map(([user_id, ids]): LiveEvent => ({ type: 'notification', user_id, created: ids })),
    ...unreadChanged([...new Set(others)].filter((u) => !byUser.has(u))),
  ];
}

/** A comment posted: `reply` to the authors of the comment it answers (as sent) and of its thread; `mention`. */
export async function notifyComment(
  trx: Db,
  c: { id: number; streamer_id: number; user_id: number | null; body: string; created_at: string },
  answered: number[],
): Promise<void> {
  const base = {
    streamer_id: c.streamer_id,
    comment_id: c.id,
    actor_user_id: c.user_id,
    created_at: c.created_at,
  };
  const rows: NewNotification[] = [];
  if (answered.length > 0) {
    const authors = await trx
      .selectFrom('comments')
      .select('user_id')
      .where('id', 'in', answered)
      .where('user_id', 'is not', null)
      .execute();
    for (const user_id of new Set(authors.map((a) => a.user_id))) {
      if (user_id !== null) rows.push({ ...base, user_id, kind: 'reply' });
    }
  }
  for (const user_id of await mentionRecipients(trx, mentionedLogins(c.body), c.user_id)) {
    rows.push({ ...base, user_id, kind: 'mention' });
  }
  const notified = await insertNotifications(trx, rows);
  publish(trx, [{ type: 'comment', id: c.id, streamer_id: c.streamer_id }, ...created(notified)]);
}

/**
 * Held comments approved (issue 29): published now, so they notify as a posted comment does,
 * and appear on the pages. The thread is read as the post reads it: the comment it answers
 * and that comment's top-level comment.
 */
export async function notifyApproved(trx: Db, comments: { id: number }[]): Promise<void> {
  if (comments.length === 0) return;
  const rows = await trx
    .selectFrom('comments')
    .leftJoin('comments as parent', 'parent.id', 'comments.reply_to')
    .select([
      'comments.id',
      'comments.streamer_id',
      'comments.user_id',
      'comments.body',
      'comments.created_at',
      'comments.reply_to',
      'comments.hidden',
      'parent.reply_to as top',
    ])
    .where(
      'comments.id',
      'in',
      comments.map((c) => c.id),
    )
    .execute();
  for (const c of rows) {
    const answered = [c.reply_to, c.top].filter((id): id is number => id !== null);
    await notifyComment(trx, c, answered);
  }
  // A comment held again by its edit (comments/change.ts) had its notifications put away.
  const shown = rows.filter((c) => c.hidden === 0).map((c) => c.id);
  publish(trx, unreadChanged(await setShown(trx, shown, true)));
}

/**
 * A streamer's rating entered the Public view or its total changed: `rated` to the user who
 * speaks for it (catalogue/speaks-for.ts), unless that user rated it.
 */
export async function notifyRated(
  trx: Db,
  streamerId: number,
  raterId: number | null,
  now: string,
): Promise<void> {
  const speaker = await speakerOfStreamer(trx, streamerId);
  if (speaker === null || speaker === raterId) return;
  const notified = await insertNotifications(trx, [
    {
      user_id: speaker,
      kind: 'rated',
      streamer_id: streamerId,
      comment_id: null,
      actor_user_id: null,
      created_at: now,
    },
  ]);
  publish(trx, created(notified));
}

/**
 * Streams that live sync started (history/record.ts, the fourth wave's "Stream history" rule):
 * `live` to each follower of their streamers (DECISIONS.md "Fifth wave" → "Following"), once per
 * stream and follower. An administrator's status change starts no stream and notifies nobody.
 */
export async function notifyLive(
  trx: Db,
  streams: { id: number; streamer_id: number }[],
  now: string,
): Promise<void> {
  if (streams.length === 0) return;
  const notified = await insertLiveNotifications(
    trx,
    streams.map((s) => s.id),
    now,
  );
  publish(trx, created(notified));
}

/** A like: its comment's author hears of it once per liker, however often it is toggled. */
export async function notifyLike(
  trx: Db,
  comment: { id: number; streamer_id: number; user_id: number | null },
  likerId: number,
  now: string,
): Promise<void> {
  if (comment.user_id === null) return;
  const notified = await insertNotifications(trx, [
    {
      user_id: comment.user_id,
      kind: 'like',
      streamer_id: comment.streamer_id,
      comment_id: comment.id,
      actor_user_id: likerId,
      created_at: now,
    },
  ]);
  publish(trx, created(notified));
}

/**
 * Comments hidden by staff (one, or a bulk action): `hidden` to each signed-in author but the
 * staff member; the comments leave the pages, and their authors' counts may drop (the other
 * notifications about them are left out from now on).
 */
export async function notifyHidden(
  trx: Db,
  comments: (Before & { user_id: number | null })[],
  staffId: number | null,
  now: string,
): Promise<void> {
  const rows: NewNotification[] = [];
  for (const c of comments) {
    if (c.user_id === null || c.user_id === staffId) continue;
    rows.push({
      user_id: c.user_id,
      kind: 'hidden',
      streamer_id: c.streamer_id,
      comment_id: c.id,
      actor_user_id: staffId,
      created_at: now,
    });
  }
  const notified = await insertNotifications(trx, rows);
  const dropped = await setShown(trx, ids(comments), false);
  publish(trx, [...removed(comments), ...created(notified, dropped)]);
}

/** Comments deleted (call before the delete) or hidden by their author: they leave the pages and the counts. */
export async function notifyDeleted(trx: Db, comments: Before[]): Promise<void> {
  const dropped = await setShown(trx, ids(comments), false);
  publish(trx, [...removed(comments), ...unreadChanged(dropped)]);
}

/**
 * Every comment of one author deleted with their account (call before the delete): those the
 * pages showed leave them, and the notifications about them leave the counts of those notified.
 */
export async function notifyAuthorDeleted(trx: Db, authorId: number): Promise<void> {
  const comments = await trx
    .selectFrom('comments')
    .select(['id', 'streamer_id', 'hidden', 'pending'])
    .where('user_id', '=', authorId)
    .execute();
  const dropped = await setShown(trx, { authorId }, false);
  publish(trx, [...removed(comments), ...unreadChanged(dropped)]);
}

/** Comments shown again: back on the pages, and in the counts of those notified about them. */
export async function notifyShown(trx: Db, comments: Before[]): Promise<void> {
  publish(trx, [
    // A held comment shown stays held: only its approval publishes it (notifyApproved).
    ...comments
      .filter((c) => c.pending !== 1)
      .map((c): LiveEvent => ({ type: 'comment', id: c.id, streamer_id: c.streamer_id })),
    ...unreadChanged(await setShown(trx, ids(comments), true)),
  ]);
}

const ids = (comments: { id: number }[]) => comments.map((c) => c.id);

/** A comment as it was before a change: whether the pages showed it (not hidden, not held). */
type Before = { id: number; streamer_id: number; hidden?: number; pending?: number };

/**
 * Comments that left the pages (hidden, deleted): told only of those the pages showed, so that
 * deleting a held or hidden comment sends nobody its id (issue 45 item 7).
 */
const removed = (comments: Before[]): LiveEvent[] =>
  comments
    .filter((c) => c.hidden !== 1 && c.pending !== 1)
    .map((c) => ({ type: 'comment_removed', id: c.id, streamer_id: c.streamer_id }));
