import type { Db } from '../db/schema.ts';
import { PUSH_LIMITS } from '../shared/push.ts';
import { kindsColumn, kindsOf, type NewSubscription } from './subscription.ts';

/**
 * Saves a subscription for the user, inside the caller's transaction (which holds the user's
 * row lock): one row per endpoint, so the same endpoint again replaces its row, moved to this
 * user (another user's row for it goes, with its messages still to send); at most
 * PUSH_LIMITS.perUser per user, the oldest making room. Answers the row's id.
 */
export async function saveSubscription(
  trx: Db,
  userId: number,
  sub: NewSubscription,
  now: string,
): Promise<number> {
  const existing = await trx
    .selectFrom('push_subscriptions')
    .select(['id', 'user_id'])
    .where('endpoint', '=', sub.endpoint)
    .executeTakeFirst();
  if (existing && existing.user_id !== userId) {
    await trx.deleteFrom('push_subscriptions').where('id', '=', existing.id).execute();
  }
  if (existing?.user_id !== userId) await makeRoom(trx, userId);
  const values = {
    origin: sub.origin,
    p256dh: sub.p256dh,
    auth: sub.auth,
    kinds: kindsColumn(sub.kinds),
    created_at: now,
  };
  const row = await trx
    .insertInto('push_subscriptions')
    .values({ user_id: userId, endpoint: sub.endpoint, last_ok_at: null, ...values })
    .onConflict((oc) => oc.column('endpoint').doUpdateSet({ user_id: userId, ...values }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Deletes the user's oldest subscriptions until one more fits. */
async function makeRoom(trx: Db, userId: number): Promise<void> {
  const rows = await trx
    .selectFrom('push_subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(PUSH_LIMITS.perUser - 1)
    .limit(1000)
    .execute();
  if (rows.length === 0) return;
  await trx
    .deleteFrom('push_subscriptions')
    .where(
      'id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
}

/** The user's subscriptions, newest first, without endpoint or keys. */
export async function listSubscriptions(
  db: Db,
  userId: number,
  page: { limit: number; before: number | null },
) {
  let query = db
    .selectFrom('push_subscriptions')
    .select(['id', 'kinds', 'created_at', 'last_ok_at'])
    .where('user_id', '=', userId);
  if (page.before !== null) query = query.where('id', '<', page.before);
  const rows = await query.orderBy('id', 'desc').limit(page.limit).execute();
  return rows.map((r) => ({ ...r, kinds: kindsOf(r.kinds) }));
}

/** Deletes the user's subscription; false when the user has none of that id. */
export async function deleteSubscription(db: Db, userId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('push_subscriptions')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The user's subscriptions for the account export: the push service, never the endpoint or keys. */
export async function subscriptionsOf(db: Db, userId: number) {
  const rows = await db
    .selectFrom('push_subscriptions')
    .select(['id', 'origin', 'kinds', 'created_at', 'last_ok_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    push_service: r.origin,
    kinds: kindsOf(r.kinds),
    created_at: r.created_at,
    last_ok_at: r.last_ok_at,
  }));
}
