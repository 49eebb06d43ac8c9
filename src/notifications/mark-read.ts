import type { AppContext } from '../context.ts';
import { writeTransaction } from '../db/transaction.ts';
import { publish } from '../db/event-log.ts';
import { markRead, unreadCount } from './queries.ts';

/**
 * Marks a user's notifications read (all, or the ids given); when any changed, their open
 * pages hear it (`notification`). One transaction; answers the unread count after it.
 */
export async function markNotificationsRead(
  ctx: AppContext,
  userId: number,
  ids: number[] | null,
): Promise<number> {
  return writeTransaction(ctx.database, async (trx) => {
    const changed = await markRead(trx, userId, ids === null ? 'all' : { ids });
    if (changed) publish(trx, [{ type: 'notification', user_id: userId }]);
    return unreadCount(trx, userId);
  });
}
