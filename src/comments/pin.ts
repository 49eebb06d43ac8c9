import { actorOf, audit } from '../audit/queries.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/schema.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import { truthy } from '../lib/input.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { isStaff } from '../shared/roles.ts';
import { speakerOfStreamer } from '../catalogue/speaks-for.ts';
import { mayPin, pinnable } from './policy.ts';
import { commentToChange, streamerNameOf } from './queries.ts';

/** Whether the viewer may pin this streamer's comments: staff, or who speaks for the streamer. */
async function mayPinIn(trx: Db, viewer: Viewer, streamerId: number): Promise<boolean> {
  const speaker = viewer.user ? await speakerOfStreamer(trx, streamerId) : null;
  return mayPin(viewer, speaker === viewer.user?.id ? [streamerId] : [], streamerId);
}

/**
 * Who may pin at all, known from the session alone: the route asks it before the body is read
 * (DECISIONS.md "Errors": 401/403 before 400), the operation again.
 */
export function assertPinner(viewer: Viewer): void {
  if (viewer.bannedUser && !viewer.isAdmin) throw fail('banned');
  if (!viewer.user && !viewer.isAdmin) throw fail('unauthorized');
}

/**
 * Pins or unpins a comment (DECISIONS.md "Comments: pinned and ordered"): staff, or the user
 * who speaks for the comment's streamer, decided inside the write transaction as the right of
 * reply is (streamers/reply.ts). Pinning unpins the streamer's pinned comment in the same
 * transaction; the database holds at most one (migration 025). Staff's pins are audited.
 */
export async function pinComment(
  ctx: AppContext,
  viewer: Viewer,
  id: number | null,
  input: unknown,
): Promise<void> {
  assertPinner(viewer);
  if (id === null) throw fail('missing_id');
  const pinned = truthy(input);
  const now = ctx.clock.now();
  await writeTransaction(ctx.database, async (trx) => {
    // PostgreSQL: the streamer's row, then the comment's, held until the commit: the pins of
    // one streamer take turns (the second reads the first's pin), a hiding waits.
    const comment = await commentToChange(trx, id, 'update');
    // DECISIONS.md "Errors": who may pin (403, known from the row) before the body (400), then the row (404).
    if (comment && !(await mayPinIn(trx, viewer, comment.streamer_id))) throw fail('not_allowed');
    if (input === undefined) throw fail('nothing_to_update');
    if (!comment) throw fail('comment_not_found');
    const streamerId = comment.streamer_id;
    const facts = {
      reply_to: comment.reply_to,
      hidden: comment.hidden === 1,
      pending: comment.pending === 1,
    };
    if (pinned && !pinnable(facts)) throw fail('cannot_pin');
    if (comment.pinned === (pinned ? 1 : 0)) return;
    const change = pinned ? await pin(trx, streamerId, id) : await unpin(trx, id);
    if (!isStaff(viewer)) return;
    await audit(trx, actorOf(viewer, now), {
      action: 'comment.pin',
      target_id: id,
      params: { author: comment.author, streamer: await streamerNameOf(trx, streamerId), pinned },
      details: { streamer_id: streamerId, unpinned: change },
    });
  });
}

/**
 * Pins the comment and unpins the streamer's pinned one, if any (its id is the answer), with
 * the streamer's row locked (commentToChange's `update`).
 */
async function pin(db: Db, streamerId: number, id: number): Promise<number | null> {
  const current = await db
    .selectFrom('comments')
    .select('id')
    .where('streamer_id', '=', streamerId)
    .where('pinned', '=', 1)
    .executeTakeFirst();
  if (current) await db.updateTable('comments').set({ pinned: 0 }).where('id', '=', current.id).execute();
  await db.updateTable('comments').set({ pinned: 1 }).where('id', '=', id).execute();
  return current?.id ?? null;
}

/** Unpins the comment (the answer is its id, the one unpinned). */
async function unpin(db: Db, id: number): Promise<number> {
  await db.updateTable('comments').set({ pinned: 0 }).where('id', '=', id).execute();
  return id;
}
