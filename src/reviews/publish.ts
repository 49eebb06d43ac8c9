import { actorOf, audit } from '../audit/queries.ts';
import { type Keep, keepNothing } from '../idempotency/keep.ts';
import { OK } from '../lib/schemas.ts';
import type { AppContext, Logger } from '../context.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail, givenId } from '../errors.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { rateWithScores } from '../streamers/rate.ts';
import { clearReviews, markPublished, reviewsOf } from './queries.ts';
import { lockStreamer } from './review.ts';
import { medianScores, spreadOf } from './tally.ts';

/**
 * The administrator publishes a streamer's reviews (DECISIONS.md "Staff reviews"): the median
 * of the non-abstaining reviews becomes the rating as the administrator's rating-mode PUT sets
 * it (streamers/rate.ts, one history row, reward and notes unchanged), the reviews are cleared
 * and an open re-rating request closed, in one transaction with the streamer's row locked, so
 * a review that races it is either counted and cleared or kept for the next round.
 */
export async function publishReviews(
  ctx: AppContext,
  request: { viewer: Viewer; log: Logger },
  id: number | null,
  /** Keeps the answer under the request's Idempotency-Key, in this transaction. */
  keep: Keep = keepNothing,
): Promise<{ ok: true }> {
  // Who may publish was asked before the body was read (routes.ts `callerOfReviews`).
  const streamerId = givenId(id, 'missing_streamer_id');
  const now = ctx.clock.now();
  const at = now.toISOString();
  return writeTransaction(ctx.database, async (trx) => {
    const name = await lockStreamer(trx, streamerId);
    const rows = await reviewsOf(trx, streamerId);
    const scored = rows.flatMap((r) => (r.item.r === null ? [] : [r.item.r]));
    const median = medianScores(scored);
    if (median === null) throw fail('no_reviews');
    const change = await rateWithScores(trx, request, streamerId, median, at);
    await clearReviews(
      trx,
      rows.map((r) => r.id),
    );
    await markPublished(trx, streamerId, at);
    await audit(trx, actorOf(request.viewer, now), {
      action: 'review.publish',
      target_id: streamerId,
      params: {
        name,
        from: change.from,
        to: change.to,
        reviews: scored.length,
        spread: spreadOf(scored) ?? 0,
      },
      details: { reviews: rows.map((r) => r.item), median },
    });
    return keep(trx, OK);
  });
}
