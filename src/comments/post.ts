import type { AppContext } from '../context.ts';
import type { Db } from '../db/schema.ts';
import { writeTransaction } from '../db/transaction.ts';
import { type Keep, keepNothing } from '../idempotency/keep.ts';
import { fail } from '../errors.ts';
import { parseId } from '../lib/input.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { notifyComment } from '../notifications/notify.ts';
import { passChallenge } from '../guests/challenge.ts';
import { guestHold } from '../settings/queries.ts';
import { holdOf, isTrusted } from './hold.ts';
import { findComment, insertComment, type NewComment } from './queries.ts';
import { checkComment, draftOf, type PostInput } from './rules.ts';

/**
 * The thread a reply joins (DECISIONS.md "Taking part"): a visible comment of the same
 * streamer; a reply to a reply joins that reply's thread, so threads stay one level deep.
 * No `reply_to` (absent, 0, not a number) is a top-level comment. `answered` holds the
 * comment named as sent and the thread's top (whose authors a reply notifies).
 */
async function threadOf(
  db: Db,
  value: unknown,
  streamerId: number | null,
  answered: number[],
): Promise<number | null> {
  const parentId = parseId(value);
  if (parentId === null) return null;
  const parent = await findComment(db, parentId);
  if (!parent || parent.hidden === 1 || parent.pending === 1 || parent.streamer_id !== streamerId) {
    throw fail('invalid_reply_to');
  }
  answered.push(parent.id);
  if (parent.reply_to === null) return parent.id;
  const top = await findComment(db, parent.reply_to);
  if (!top || top.hidden === 1) throw fail('invalid_reply_to');
  answered.push(top.id);
  return top.id;
}

/** The answer to a comment posted (SPEC.md's POST /api/comments). */
function answerOf(id: number, comment: NewComment, viewer: Viewer) {
  const { user } = viewer;
  return {
    ...(comment.pending === 1 ? { pending: true } : {}),
    id,
    author: comment.author,
    body: comment.body,
    is_admin: viewer.isAdmin,
    created_at: comment.created_at,
    reply_to: comment.reply_to ?? null,
    ...(user
      ? { user_display: user.display_name, user_avatar: user.avatar, user_provider: user.provider }
      : {}),
  };
}

/**
 * Posts a comment: the rules of rules.ts, then one write, the same on both databases. Posts
 * share a group commit (db/transaction.ts `grouped`): each runs these very steps inside a
 * savepoint of the group's transaction, so a refused one gives its own error.
 */
export async function postComment(
  ctx: AppContext,
  viewer: Viewer,
  input: PostInput,
  guestTag: string,
  now: Date,
  /** Keeps the answer under the request's Idempotency-Key, in the comment's transaction. */
  keep: Keep = keepNothing,
) {
  const d = draftOf(viewer, input, guestTag, now, ctx.config.rateLimit);
  const userHeld = viewer.user?.held ?? false;
  const comment = {
    streamer_id: d.streamerId ?? 0,
    user_id: viewer.user?.id ?? null,
    author: d.author,
    body: d.body,
    is_admin: viewer.isAdmin ? 1 : 0,
    created_at: d.createdAt,
    guest_tag: guestTag,
    reply_to: null as number | null,
    pending: 0,
  };
  // Only a guest's post (or a held account's) reads the hold: the signed-in path asks nothing more.
  const hold = holdOf({ guest: d.guest, userHeld }, d.guest ? await guestHold(ctx.db) : 'none', d.body);
  comment.pending = hold === true ? 1 : 0;
  return writeTransaction(
    ctx.database,
    async (trx) => {
      const answered: number[] = [];
      const checked = await checkComment(
        trx,
        d,
        () => threadOf(trx, input.reply_to, d.streamerId, answered),
        () => passChallenge(trx, ctx.challengeKey, input.altcha, now),
      );
      Object.assign(comment, { streamer_id: checked.streamerId, reply_to: checked.replyTo });
      if (hold === 'untrusted') comment.pending = (await isTrusted(trx, guestTag)) ? 0 : 1;
      const inserted = await insertComment(trx, comment);
      // A held comment notifies nobody until it is approved (moderation's approve does then).
      if (comment.pending !== 1) await notifyComment(trx, { ...comment, id: inserted }, answered);
      // Its answer, kept under the request's Idempotency-Key in this very transaction.
      return keep(trx, answerOf(inserted, comment, viewer));
    },
    // A comment, its challenge's use and its notifications: no session row or user changes.
    { changes: 'content', grouped: true },
  );
}
