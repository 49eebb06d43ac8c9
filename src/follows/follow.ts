import type { AppContext } from '../context.ts';
import { lockRow } from '../db/dialect.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import { FOLLOW_LIMIT } from '../shared/follows.ts';
import { streamerInPublicView } from '../catalogue/public-view.ts';
import { addFollow, followCount, followerCount, isFollowing, removeFollow } from './queries.ts';

/**
 * A signed-in user follows a streamer of the Public view or stops (DECISIONS.md "Fifth wave" →
 * "Following"), in one transaction that answers the streamer's followers after it. The limit is
 * counted and the follow inserted one writer per user at a time: the user's row is locked on
 * PostgreSQL, and SQLite's group commit runs its writes one after another; so requests sent
 * side by side cannot pass it together. The write moves the content version: the followers that
 * kept answers show (the list, `?id=N`) are rendered again.
 */
export async function setFollow(
  ctx: AppContext,
  userId: number,
  streamerId: number,
  follow: boolean,
): Promise<{ followers: number }> {
  return writeTransaction(
    ctx.database,
    async (trx) => {
      await lockRow(trx, 'users', userId);
      // A follow of a streamer that has since left the Public view can still be undone (a
      // conformance sweep: it stayed in the list and the 500 for good); nothing else outside it.
      const visible = await streamerInPublicView(trx, streamerId);
      if (!visible && (follow || !(await isFollowing(trx, userId, streamerId))))
        throw fail('streamer_not_found');
      if (!follow) await removeFollow(trx, userId, streamerId);
      else if (!(await isFollowing(trx, userId, streamerId))) {
        if ((await followCount(trx, userId)) >= FOLLOW_LIMIT) throw fail('too_many_follows');
        await addFollow(trx, userId, streamerId, ctx.clock.now().toISOString());
      }
      return { followers: await followerCount(trx, streamerId) };
    },
    'content',
  );
}
