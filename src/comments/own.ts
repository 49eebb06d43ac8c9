import type { AppContext } from '../context.ts';
import type { Db } from '../db/schema.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import { notifyDeleted } from '../notifications/notify.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { likedBy } from './likes.ts';
import { commentToChange, deleteComment, selectComments, toItems } from './queries.ts';
import type { CommentItem } from './schemas.ts';

/**
 * A viewer's own comments (issue 30 item 22, issue 29): the comments this browser posted as a
 * guest, which its signed cookie remembers (own-cookie.ts), and a signed-in author's by their
 * user id. They come apart from the shared list (`GET /api/comments?mine=1`), which stays one
 * answer for all.
 */

/**
 * Deletes a guest comment for the browser that posted it: the same removal as staff's (the
 * page drops it, the notifications about it go), without an audit entry keeping its words.
 */
export async function removeGuestComment(ctx: AppContext, id: number): Promise<void> {
  await writeTransaction(ctx.database, async (trx) => {
    const comment = await commentToChange(trx, id);
    if (!comment || comment.user_id !== null) throw fail('comment_not_found');
    await notifyDeleted(trx, [comment]);
    await deleteComment(trx, id);
  });
}

/** What is this viewer's on a streamer's page: liked, deletable as theirs, waiting for a moderator. */
export interface Mine {
  liked: number[];
  own: number[];
  held: CommentItem[];
}

export async function mineOf(
  db: Db,
  streamerId: number,
  viewer: Viewer,
  ids: readonly number[],
): Promise<Mine> {
  const userId = viewer.user?.id ?? null;
  const liked = userId === null ? [] : await likedBy(db, streamerId, userId);
  if (ids.length === 0 && userId === null) return { liked, own: [], held: [] };
  const rows = await selectComments(db)
    .where('comments.streamer_id', '=', streamerId)
    .where((eb) => {
      const byBrowser = eb.and([
        eb('comments.id', 'in', ids.length ? ids : [0]),
        eb('comments.user_id', 'is', null),
      ]);
      return userId === null ? byBrowser : eb.or([byBrowser, eb('comments.user_id', '=', userId)]);
    })
    .where((eb) => eb.or([eb('comments.pending', '=', 1), eb('comments.id', 'in', ids.length ? ids : [0])]))
    .orderBy('comments.id')
    .execute();
  const own = rows.filter((r) => r.user_id === null).map((r) => r.id);
  // Held comments are shown to their author only, marked: never in the shared list or a count.
  const waiting = rows.filter((r) => r.pending === 1 && r.hidden === 0);
  const held = (await toItems(db, waiting, false)).map((item) => ({ ...item, pending: true }));
  return { liked, own, held };
}
