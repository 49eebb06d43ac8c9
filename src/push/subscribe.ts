import type { AppContext } from '../context.ts';
import { lockRow } from '../db/dialect.ts';
import { writeTransaction } from '../db/transaction.ts';
import { deleteSubscription, saveSubscription } from './queries.ts';
import type { NewSubscription } from './subscription.ts';

/**
 * Subscribes a device (DECISIONS.md "Fifth wave" → "Push notifications"), one writer per user
 * at a time (the user's row locked on PostgreSQL; SQLite's writes run one after another), so
 * subscriptions sent side by side cannot pass the limit together. No answer shows it: it moves
 * no content version.
 */
export async function subscribe(ctx: AppContext, userId: number, sub: NewSubscription): Promise<number> {
  return writeTransaction(
    ctx.database,
    async (trx) => {
      await lockRow(trx, 'users', userId);
      return saveSubscription(trx, userId, sub, ctx.clock.now().toISOString());
    },
    'none',
  );
}

/** Removes one of the user's own subscriptions; false when they have none of that id. */
export async function unsubscribe(ctx: AppContext, userId: number, id: number): Promise<boolean> {
  return writeTransaction(ctx.database, (trx) => deleteSubscription(trx, userId, id), 'none');
}
