import { actorOf, audit } from '../audit/queries.ts';
import { commentBody } from '../comments/rules.ts';
import type { AppContext } from '../context.ts';
import { writeTransaction } from '../db/transaction.ts';
import { publish } from '../db/event-log.ts';
import type { Db } from '../db/schema.ts';
import { fail, givenId } from '../errors.ts';
import { cleanText } from '../lib/input.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { mayReply } from './policy.ts';
import { streamerInPublicView } from '../catalogue/public-view.ts';
import { lastRatedAt } from './rating-queries.ts';
import { speakerOfStreamer } from '../catalogue/speaks-for.ts';

/**
 * Who may write a reply at all, known from the session alone: the route asks it before the body
 * is read (DECISIONS.md "Errors": 401/403 before 400), the operation again for the user's id.
 */
export function replierOf(viewer: Viewer): number {
  if (viewer.bannedUser) throw fail('banned');
  if (!viewer.user && !viewer.isAdmin) throw fail('not_logged_in');
  // The shared password's administrator has no account to speak with (staff: mayReply below).
  if (!viewer.user) throw fail('not_your_channel');
  return viewer.user.id;
}

/**
 * The right of reply (DECISIONS.md "Streamers speak for themselves"): the user who speaks for
 * the streamer writes, replaces or (with an empty body) removes the one reply under the staff
 * rating. Who speaks is decided inside the write transaction, so a sign-in or a sync that
 * changes it cannot slip between the check and the write.
 */
export async function writeReply(
  ctx: AppContext,
  viewer: Viewer,
  given: number | null,
  input: unknown,
): Promise<void> {
  const userId = replierOf(viewer);
  const id = givenId(given);
  const text = cleanText(input) ?? '';
  const at = ctx.clock.now().toISOString();
  await writeTransaction(ctx.database, async (trx) => {
    const speaksFor = (await speakerOfStreamer(trx, id)) === userId ? [id] : [];
    if (!mayReply(viewer, speaksFor, id)) throw fail('not_your_channel');
    const body = text === '' ? null : commentBody(text);
    const ratingAt = await lastRatedAt(trx, id);
    if (ratingAt === null || !(await streamerInPublicView(trx, id))) throw fail('streamer_not_found');
    // The reply is part of the rating's block: open pages show it live (issue 45, week 18).
    publish(trx, [{ type: 'rating', streamer_id: id }]);
    if (body === null) {
      await trx.deleteFrom('streamer_replies').where('streamer_id', '=', id).execute();
      return;
    }
    const values = { user_id: userId, body, at, rating_at: ratingAt };
    await trx
      .insertInto('streamer_replies')
      .values({ streamer_id: id, ...values })
      .onConflict((oc) => oc.column('streamer_id').doUpdateSet(values))
      .execute();
  });
}

/** Every stored reply with who wrote it, by streamer (the views show it while its author speaks). */
export async function storedReplies(db: Db) {
  const rows = await db.selectFrom('streamer_replies').selectAll().execute();
  return new Map(rows.map((r) => [r.streamer_id, r]));
}

/** Staff remove a streamer's reply (audited); the streamer may write a new one. */
export async function removeReply(ctx: AppContext, viewer: Viewer, id: number): Promise<void> {
  await writeTransaction(ctx.database, async (trx) => {
    const streamer = await trx.selectFrom('streamers').select('name').where('id', '=', id).executeTakeFirst();
    if (!streamer) throw fail('streamer_not_found');
    const removed = await trx
      .deleteFrom('streamer_replies')
      .where('streamer_id', '=', id)
      .returning('body')
      .executeTakeFirst();
    if (removed === undefined) return;
    publish(trx, [{ type: 'rating', streamer_id: id }]);
    await audit(trx, actorOf(viewer, ctx.clock.now()), {
      action: 'streamer.reply_remove',
      target_id: id,
      params: { name: streamer.name },
      details: { body: removed.body },
    });
  });
}
