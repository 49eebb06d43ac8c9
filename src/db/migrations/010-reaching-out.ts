import { type Kysely, sql } from 'kysely';
import { idColumn } from '../dialect.ts';

/**
 * Discord webhooks (DECISIONS.md "Reaching out") and their outbox: one row per event and
 * webhook, written in the transaction of the change that causes the event, sent after the
 * commit by the instance that holds the `discord` lease. The row's state is the
 * claim-then-send record that makes a send happen at most once (discord/sender.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = idColumn(db);
  await db.schema
    .createTable('discord_webhooks')
    .addColumn('id', idType, idDef)
    .addColumn('url', 'text', (c) => c.notNull().unique())
    /** Comma-separated subset of rated, suggested, live, reported. */
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  const [outboxIdType, outboxIdDef] = idColumn(db);
  await db.schema
    .createTable('discord_outbox')
    .addColumn('id', outboxIdType, outboxIdDef)
    .addColumn('webhook_id', 'integer', (c) =>
      c.notNull().references('discord_webhooks.id').onDelete('cascade'),
    )
    .addColumn('event', 'text', (c) => c.notNull())
    /** The embed as JSON; its `url` is a path, made absolute from BASE_URL when sent. */
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('not_before', 'text', (c) => c.notNull())
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint(
      'discord_outbox_state_check',
      sql`"state" in ('pending', 'sending', 'sent', 'failed', 'unknown')`,
    )
    .addCheckConstraint(
      'discord_outbox_event_check',
      sql`"event" in ('rated', 'suggested', 'live', 'reported', 'test')`,
    )
    .addCheckConstraint('discord_outbox_attempts_check', sql`"attempts" >= 0`)
    .execute();
  // The sender's one query: what is due, oldest first.
  await db.schema
    .createIndex('discord_outbox_due')
    .on('discord_outbox')
    .columns(['state', 'not_before', 'id'])
    .execute();
  await db.schema.createIndex('discord_outbox_webhook').on('discord_outbox').column('webhook_id').execute();
}
