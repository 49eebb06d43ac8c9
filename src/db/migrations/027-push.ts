import { type Kysely, sql } from 'kysely';
import { idColumn } from '../dialect.ts';

/**
 * Push notifications (DECISIONS.md "Fifth wave" → "Push notifications").
 *
 * `push_subscriptions`: one row per endpoint (unique), moved to whoever subscribes it last,
 * gone with its user. `kinds` is the subscribed kinds separated and enclosed by spaces
 * (` live reply `), so that one `like` matches a kind in SQL on both databases. `origin` is the
 * endpoint's push service, which a 429 pauses.
 *
 * `push_outbox`: one message for one subscription, made by the push deliverer from the event
 * log in the transaction that moves its cursor. "Never twice for one notification and
 * subscription" is the unique index on the pair; the message goes with either (a notification
 * deleted or a subscription removed sends nothing). A test message has no notification and
 * carries its payload. The deliverer's cursor starts at the log's head.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = idColumn(db);
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', idType, idDef)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('kinds', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_ok_at', 'text')
    .execute();
  await db.schema
    .createIndex('push_subscriptions_user')
    .on('push_subscriptions')
    .columns(['user_id', 'created_at'])
    .execute();

  const [outboxIdType, outboxIdDef] = idColumn(db);
  await db.schema
    .createTable('push_outbox')
    .addColumn('id', outboxIdType, outboxIdDef)
    .addColumn('notification_id', 'integer', (c) => c.references('notifications.id').onDelete('cascade'))
    .addColumn('subscription_id', 'integer', (c) =>
      c.notNull().references('push_subscriptions.id').onDelete('cascade'),
    )
    /** A test message's payload (JSON); null for a notification's, made when it is sent. */
    .addColumn('payload', 'text')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('not_before', 'text', (c) => c.notNull())
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint(
      'push_outbox_state_check',
      sql`"state" in ('pending', 'sending', 'sent', 'failed', 'unknown', 'skipped')`,
    )
    .addCheckConstraint('push_outbox_attempts_check', sql`"attempts" >= 0`)
    .addCheckConstraint('push_outbox_what_check', sql`("notification_id" is null) <> ("payload" is null)`)
    .execute();
  await db.schema
    .createIndex('push_outbox_once')
    .on('push_outbox')
    .columns(['notification_id', 'subscription_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('push_outbox_due')
    .on('push_outbox')
    .columns(['state', 'not_before', 'id'])
    .execute();
  await db.schema
    .createIndex('push_outbox_subscription')
    .on('push_outbox')
    .column('subscription_id')
    .execute();
  // The push deliverer follows the log from here: notifications from now on are sent.
  const head = await db
    .selectFrom('event_log')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  await db
    .insertInto('log_cursors')
    .values({ name: 'push', last_id: Number(head?.id ?? 0) })
    .execute();
}
