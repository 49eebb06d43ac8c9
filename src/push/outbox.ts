import { sql } from 'kysely';
import { inIds } from '../db/dialect.ts';
import type { Db } from '../db/schema.ts';
import type { LoggedEvent } from '../events/log.ts';
import { PUSH_KINDS } from '../shared/push.ts';

/**
 * The push outbox (migration 027): one row per notification and subscription, made from the
 * event log in the deliverer's transaction (events/deliverer.ts), claimed before it is sent.
 */

/** Notification ids one statement queues at most. */
const QUEUE_CHUNK = 500;

/** The notifications the log's `notification` events created (db/event-log.ts). */
export function createdIn(events: LoggedEvent[]): number[] {
  return events.flatMap((e) => {
    if (e.data === '{}') return [];
    const { created } = JSON.parse(e.data) as { created?: number[] };
    return created ?? [];
  });
}

/**
 * Queues a message for each subscription of each notification's recipient that asked for its
 * kind, in one statement per chunk; the unique index on (notification, subscription) makes a
 * second queueing of the same pair change nothing. Answers how many rows it queued.
 */
export async function queueNotifications(trx: Db, ids: number[], now: string): Promise<number> {
  let queued = 0;
  for (let from = 0; from < ids.length; from += QUEUE_CHUNK) {
    const chunk = ids.slice(from, from + QUEUE_CHUNK);
    const result = await trx
      .insertInto('push_outbox')
      .columns(['notification_id', 'subscription_id', 'not_before', 'created_at'])
      .expression((eb) =>
        eb
          .selectFrom('notifications as n')
          .innerJoin('push_subscriptions as s', 's.user_id', 'n.user_id')
          .select((e) => [
            'n.id',
            's.id as subscription_id',
            e.val(now).as('not_before'),
            e.val(now).as('created_at'),
          ])
          .where(inIds(trx, 'n.id', chunk))
          .where('n.kind', 'in', PUSH_KINDS)
          .where('n.shown', '=', 1)
          .where(sql<boolean>`${sql.ref('s.kinds')} like '% ' || ${sql.ref('n.kind')} || ' %'`),
      )
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    queued += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return queued;
}

/** A test message for each of the user's subscriptions (POST /api/push/test); how many. */
export async function queueTest(db: Db, userId: number, payload: string, now: string): Promise<number> {
  const result = await db
    .insertInto('push_outbox')
    .columns(['subscription_id', 'payload', 'not_before', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('push_subscriptions')
        .select((e) => [
          'id',
          e.val(payload).as('payload'),
          e.val(now).as('not_before'),
          e.val(now).as('created_at'),
        ])
        .where('user_id', '=', userId),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/**
 * Due messages, the longest due first, leaving out push services that asked to wait (`paused`
 * origins); each with its push service's origin as its lane. Read in the order of the outbox's
 * due index (`state, not_before, id`), so a claim reads as many rows as it takes: in `id`
 * order every claim read and sorted all the due rows, and a go-live to 10,000 followers, claimed
 * a few at a time, spent seconds of the event loop sorting (docs/benchmarks.md, stop 85).
 */
export function dueQuery(db: Db, now: string, limit: number, paused: readonly string[]) {
  let due = db
    .selectFrom('push_outbox as o')
    .innerJoin('push_subscriptions as s', 's.id', 'o.subscription_id')
    .select(['o.id', 's.origin'])
    .where('o.state', '=', 'pending')
    .where('o.not_before', '<=', now);
  if (paused.length > 0) due = due.where('s.origin', 'not in', paused);
  return due.orderBy('o.not_before').orderBy('o.id').limit(limit);
}

export async function dueMessages(db: Db, now: string, limit: number, paused: readonly string[]) {
  const rows = await dueQuery(db, now, limit, paused).execute();
  return rows.map((r) => ({ id: r.id, lane: r.origin }));
}

/** Claimed messages with their subscription and notification (null when the notification is gone). */
export async function loadMessages(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('push_outbox as o')
    .innerJoin('push_subscriptions as s', 's.id', 'o.subscription_id')
    .leftJoin('notifications as n', 'n.id', 'o.notification_id')
    .leftJoin('streamers as st', 'st.id', 'n.streamer_id')
    .leftJoin('ratings as r', 'r.streamer_id', 'n.streamer_id')
    .leftJoin('comments as c', 'c.id', 'n.comment_id')
    .leftJoin('users as author', 'author.id', 'c.user_id')
    .select([
      'o.id',
      'o.attempts',
      'o.payload',
      'o.subscription_id',
      's.endpoint',
      's.origin',
      's.p256dh',
      's.auth',
      'n.kind',
      'n.shown',
      'n.streamer_id',
      'n.comment_id',
      'n.stream_id',
      'st.name as streamer_name',
      'st.title as stream_title',
      'st.game as stream_game',
      'c.body as comment_body',
      'c.author as comment_author',
      'author.display_name as author_name',
      sql<number | null>`r.s + r.g + r.a + r.v + r.n + r.ns + r.o`.as('total'),
    ])
    .where(inIds(db, 'o.id', ids))
    .orderBy('o.id')
    .execute();
}

/** A claimed message with what it needs to be sent. */
export type Claimed = Awaited<ReturnType<typeof loadMessages>>[number];

/** The push service took messages: their subscriptions work (`last_ok_at`). */
export async function noteOk(db: Db, subscriptionIds: number[], now: string): Promise<void> {
  await db
    .updateTable('push_subscriptions')
    .set({ last_ok_at: now })
    .where(inIds(db, 'id', subscriptionIds))
    .execute();
}

/** The push service says the subscription is gone (404, 410): it goes, with its messages. */
export async function removeSubscription(db: Db, id: number): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
}
