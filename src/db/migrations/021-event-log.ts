import { type Kysely, sql } from 'kysely';
import { idColumn } from '../dialect.ts';

/**
 * The event log (issue 40, docs/architecture.md "Where an event goes"): one row for every event
 * a committed write published, written in that write's own transaction, with an id that only
 * grows (SQLite's AUTOINCREMENT never reuses one; on PostgreSQL the writers take the log's lock
 * before they append, so ids commit in order). Every reader follows it from a cursor: each
 * instance's live streams from their last id in memory, each deliverer (Discord, and the push
 * and mail of later issues) from its row in `log_cursors`, advanced in the transaction that
 * records what it delivered. `data` holds the event's fields as JSON; streams send ids and
 * numbers only, Discord's row carries its embed.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = idColumn(db);
  await db.schema
    .createTable('event_log')
    .addColumn('id', idType, idDef)
    .addColumn('type', 'text', (c) => c.notNull())
    /** The streamer it concerns (no reference: the log outlives what it tells of). */
    .addColumn('streamer_id', 'integer')
    /** The user it is for (`notification`: whose unread count changed). */
    .addColumn('user_id', 'integer')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint(
      'event_log_type_check',
      sql`"type" in ('comment', 'comment_removed', 'rating', 'live', 'notification', 'discord')`,
    )
    .execute();
  // Pruning by age, and a replay's check of how old an id is.
  await db.schema.createIndex('event_log_created').on('event_log').column('created_at').execute();
  // A deliverer's look for its own kind past its cursor.
  await db.schema.createIndex('event_log_type_id').on('event_log').columns(['type', 'id']).execute();
  await db.schema
    .createTable('log_cursors')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('last_id', 'integer', (c) => c.notNull())
    .addCheckConstraint('log_cursors_last_id_check', sql`"last_id" >= 0`)
    .execute();
  // Discord's deliveries were queued straight into its outbox until now: it starts at the log's start.
  await db.insertInto('log_cursors').values({ name: 'discord', last_id: 0 }).execute();
}
