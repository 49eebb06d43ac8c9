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

/** The notifications the log's `notification` events created (events/log.ts). */
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

/** Messages not sent yet (due or waiting for a retry). */
export async function pendingMessages(db: Db): Promise<number> {
  const row = await db
    .selectFrom('push_outbox')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Whether a message is due now (one indexed read). */
export async function hasDue(db: Db, now: string): Promise<boolean> {
  const row = await db
    .selectFrom('push_outbox')
    .select('id')
    .where('state', '=', 'pending')
    .where('not_before', '<=', now)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A claimed message with what it needs to be sent. */
export type Claimed = Awaited<ReturnType<typeof claimDue>>[number];

/**
 * Claims up to `limit` due messages for `holder`, oldest first, leaving out push services
 * that asked to wait (`paused` origins): a conditional update, so of two instances that both
 * believe they may send, each message goes to one. Answers them with their subscription and
 * notification (null when the notification is gone).
 */
export async function claimDue(db: Db, holder: string, now: string, limit: number, paused: string[]) {
  let due = db
    .selectFrom('push_outbox as o')
    .innerJoin('push_subscriptions as s', 's.id', 'o.subscription_id')
    .select('o.id')
    .where('o.state', '=', 'pending')
    .where('o.not_before', '<=', now);
  if (paused.length > 0) due = due.where('s.origin', 'not in', paused);
  const ids = (await due.orderBy('o.id').limit(limit).execute()).map((r) => r.id);
  if (ids.length === 0) return [];
  const claimed = await db
    .updateTable('push_outbox')
    .set((eb) => ({
      state: 'sending',
      claimed_by: holder,
      claimed_at: now,
      attempts: eb('attempts', '+', 1),
    }))
    .where(inIds(db, 'id', ids))
    .where('state', '=', 'pending')
    .returning('id')
    .execute();
  if (claimed.length === 0) return [];
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
    .where(
      inIds(
        db,
        'o.id',
        claimed.map((c) => c.id),
      ),
    )
    .orderBy('o.id')
    .execute();
}

export type Outcome =
  | { state: 'sent' | 'failed' | 'unknown' | 'skipped'; error: string | null }
  | { state: 'pending'; error: string | null; notBefore: string; countAttempt: boolean };

/** Where a claimed message ends up after its send; a success notes the subscription's `last_ok_at`. */
export async function settle(
  db: Db,
  claimed: { id: number; subscription_id: number },
  outcome: Outcome,
  now: string,
) {
  const query = db.updateTable('push_outbox').where('id', '=', claimed.id).where('state', '=', 'sending');
  const common = { state: outcome.state, last_error: outcome.error };
  if (outcome.state === 'pending') {
    await query
      .set((eb) => ({
        ...common,
        claimed_by: null,
        not_before: outcome.notBefore,
        // A 429 is the push service declining to take it yet, not a failed try.
        attempts: outcome.countAttempt ? eb.ref('attempts') : eb('attempts', '-', 1),
      }))
      .execute();
    return;
  }
  await query.set({ ...common, finished_at: now }).execute();
  if (outcome.state === 'sent') {
    await db
      .updateTable('push_subscriptions')
      .set({ last_ok_at: now })
      .where('id', '=', claimed.subscription_id)
      .execute();
  }
}

/** The push service says the subscription is gone (404, 410): it goes, with its messages. */
export async function removeSubscription(db: Db, id: number): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
}

/**
 * Messages claimed before `cutoff` and still `sending` were being sent by a process that
 * stopped: they may have arrived, so they are never sent again.
 */
export async function abandonStale(db: Db, cutoff: string, now: string): Promise<number> {
  const result = await db
    .updateTable('push_outbox')
    .set({
      state: 'unknown',
      last_error: 'interrupted while sending: it may have arrived, so it is not sent again',
      finished_at: now,
    })
    .where('state', '=', 'sending')
    .where('claimed_at', '<', cutoff)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Finished messages older than `before` are forgotten. */
export async function pruneFinished(db: Db, before: string): Promise<void> {
  await db
    .deleteFrom('push_outbox')
    .where('state', 'in', ['sent', 'failed', 'unknown', 'skipped'])
    .where('finished_at', '<', before)
    .execute();
}
