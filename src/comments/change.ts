import { actorOf, audit } from '../audit/queries.ts';
import { speaksFor } from '../catalogue/speaks-for.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/schema.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import { truthy } from '../lib/input.ts';
import { shortTag } from '../plugins/guest-tag.ts';
import { notifyDeleted, notifyHidden, notifyLike, notifyShown } from '../notifications/notify.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { isStaff } from '../shared/roles.ts';
import { holdsWords } from './hold.ts';
import { hiddenBy, isOwn, isShown, mayEdit, mayLike, maySetHidden } from './policy.ts';
import { setLiked } from './likes.ts';
import { commentToChange, deleteComment, editBody, setHidden, streamerNameOf } from './queries.ts';
import { commentBody } from './rules.ts';

/** Likes or unlikes a visible comment (DECISIONS.md "Taking part"); answers its likes. */
export async function likeComment(
  ctx: AppContext,
  viewer: Viewer,
  id: number,
  liked: unknown,
): Promise<number> {
  const user = viewer.user;
  if (!mayLike(viewer) || !user) throw fail('banned');
  return writeTransaction(ctx.database, async (trx) => {
    const comment = await commentToChange(trx, id);
    if (!comment || !isShown(comment)) throw fail('comment_not_found');
    const now = ctx.clock.now().toISOString();
    const likes = await setLiked(trx, id, user.id, truthy(liked), now);
    if (truthy(liked)) await notifyLike(trx, comment, user.id, now);
    return likes;
  });
}

/**
 * Hides or shows a comment, or edits its body (DECISIONS.md "Comments"): staff hide any, the
 * author their own; the author edits within the edit window. Staff's hiding is audited.
 */
export async function changeComment(
  ctx: AppContext,
  viewer: Viewer,
  id: number,
  input: { hidden?: unknown; body?: unknown },
): Promise<void> {
  if (input.hidden === undefined && input.body === undefined) throw fail('nothing_to_update');
  const now = ctx.clock.now();
  await writeTransaction(ctx.database, async (trx) => {
    const comment = await commentToChange(trx, id);
    // DECISIONS.md "Errors": who may (403) before what the body says (400) before the row (404).
    if (comment) {
      if (input.hidden !== undefined && !maySetHidden(viewer, comment, truthy(input.hidden))) {
        throw fail('not_your_comment');
      }
      if (input.body !== undefined && !mayEdit(viewer, comment, now.getTime())) {
        throw fail(isOwn(viewer, comment) ? 'edit_window_closed' : 'not_your_comment');
      }
    }
    const body = input.body === undefined ? undefined : commentBody(input.body);
    if (!comment) throw fail('comment_not_found');
    if (input.hidden !== undefined) {
      const hidden = truthy(input.hidden);
      const by = hiddenBy(viewer, comment);
      if (by === 'staff') {
        await audit(trx, actorOf(viewer, now), {
          action: 'comment.hide',
          target_id: id,
          params: {
            author: comment.author,
            streamer: await streamerNameOf(trx, comment.streamer_id),
            hidden,
          },
          details: { streamer_id: comment.streamer_id, old: comment.hidden === 1, new: hidden },
        });
      }
      await setHidden(trx, id, hidden, by);
      const was = comment.hidden === 1;
      if (hidden && !was && by === 'staff') {
        await notifyHidden(trx, [comment], viewer.user?.id ?? null, now.toISOString());
      } else if (hidden && !was) await notifyDeleted(trx, [comment]);
      else if (!hidden && was) await notifyShown(trx, [comment]);
    }
    if (body !== undefined) {
      const held = comment.pending !== 1 && (await heldByWords(trx, viewer, comment, body));
      await editBody(trx, id, body, now.toISOString(), held);
      if (held) await notifyDeleted(trx, [comment]);
    }
  });
}

/**
 * An edit that brings in one of the administrator's words is held as a new comment with it
 * would be (DECISIONS.md "Words and repeats"): it leaves the pages, the counts and the
 * notifications until staff approve it; never staff's, nor that of who speaks for the streamer.
 */
async function heldByWords(
  trx: Db,
  viewer: Viewer,
  comment: { streamer_id: number },
  body: string,
): Promise<boolean> {
  if (isStaff(viewer) || !viewer.user || !(await holdsWords(trx, body))) return false;
  return !(await speaksFor(trx, viewer.user.id, comment.streamer_id));
}

/** Deletes a comment (administrator), with the audit entry that keeps what it said. */
export async function removeComment(ctx: AppContext, viewer: Viewer, id: number): Promise<void> {
  await writeTransaction(ctx.database, async (trx) => {
    const comment = await commentToChange(trx, id);
    if (comment) await notifyDeleted(trx, [comment]);
    if (!comment || !(await deleteComment(trx, id))) throw fail('comment_not_found');
    await audit(trx, actorOf(viewer, ctx.clock.now()), {
      action: 'comment.delete',
      target_id: id,
      params: { author: comment.author, streamer: await streamerNameOf(trx, comment.streamer_id) },
      // Staff see a guest tag's first 10 characters, in the log too.
      details: {
        streamer_id: comment.streamer_id,
        old: { ...comment, guest_tag: comment.guest_tag && shortTag(comment.guest_tag) },
      },
    });
  });
}
