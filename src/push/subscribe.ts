import type { AppContext } from '../context.ts';
import { lockRow } from '../db/dialect.ts';
import { writeTransaction } from '../db/transaction.ts';
import { type Keep, keepNothing } from '../idempotency/keep.ts';
import { queueTest } from './outbox.ts';
import { deleteSubscription, saveSubscription } from './queries.ts';
import type { NewSubscription } from './subscription.ts';

/**
 * Subscribes a device (DECISIONS.md "Fifth wave" → "Push notifications"), one writer per user
 * at a time (the user's row locked on PostgreSQL; SQLite's writes run one after another), so
 * subscriptions sent side by side cannot pass the limit together. No answer shows it: it moves
 * no content version.
 */
export async function subscribe(
  ctx: AppContext,
  userId: number,
  sub: NewSubscription,
  /** Keeps the answer under the request's Idempotency-Key, in this transaction. */
  keep: Keep = keepNothing,
): Promise<{ ok: true; id: number }> {
  return writeTransaction(
    ctx.database,
    async (trx) => {
      await lockRow(trx, 'users', userId);
      const id = await saveSubscription(trx, userId, sub, ctx.clock.now().toISOString());
      return keep(trx, { ok: true as const, id });
    },
    'none',
  );
}

/** Queues a test message to each of the user's subscriptions (`POST /api/push/test`): how many. */
export async function queueTestMessages(
  ctx: AppContext,
  userId: number,
  payload: string,
  keep: Keep = keepNothing,
): Promise<{ ok: true; queued: number }> {
  return writeTransaction(
    ctx.database,
    async (trx) =>
      keep(trx, {
        ok: true as const,
        queued: await queueTest(trx, userId, payload, ctx.clock.now().toISOString()),
      }),
    'none',
  );
}

/** Removes one of the user's own subscriptions; false when they have none of that id. */
export async function unsubscribe(ctx: AppContext, userId: number, id: number): Promise<boolean> {
  return writeTransaction(ctx.database, (trx) => deleteSubscription(trx, userId, id), 'none');
}
