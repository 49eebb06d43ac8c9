import { actorOf, audit } from '../audit/queries.ts';
import type { AppContext } from '../context.ts';
import { publish } from '../db/event-log.ts';
import { writeTransaction } from '../db/transaction.ts';
import { inPublicView } from '../catalogue/public-view.ts';
import { fail } from '../errors.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { deleteStreamer, findStreamerState, setCommunityLock } from './queries.ts';

/** Locks or unlocks a streamer's community ratings (administrator; audited). */
export async function lockStreamer(
  ctx: AppContext,
  viewer: Viewer,
  id: number,
  locked: boolean,
): Promise<void> {
  await writeTransaction(ctx.database, async (trx) => {
    const before = await findStreamerState(trx, id);
    if (!before || !(await setCommunityLock(trx, id, locked))) throw fail('streamer_not_found');
    await audit(trx, actorOf(viewer, ctx.clock.now()), {
      action: 'streamer.lock',
      target_id: id,
      params: { name: before.name, locked },
      details: { old: before.community_locked === 1, new: locked },
    });
  });
}

/**
 * Deletes a streamer with its rating, comments and community ratings (administrator; audited).
 * One in the Public view leaves it: its `rating`, marked `left`, takes its row off the ranking's
 * open lists (events/ranking.ts), and its open page learns it is gone.
 */
export async function removeStreamer(ctx: AppContext, viewer: Viewer, id: number): Promise<void> {
  await writeTransaction(ctx.database, async (trx) => {
    const before = await findStreamerState(trx, id);
    if (!before || !(await deleteStreamer(trx, id))) throw fail('streamer_not_found');
    if (inPublicView(before)) publish(trx, [{ type: 'rating', streamer_id: id, left: true }]);
    await audit(trx, actorOf(viewer, ctx.clock.now()), {
      action: 'streamer.delete',
      target_id: id,
      params: { name: before.name },
    });
  });
}
