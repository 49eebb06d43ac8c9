import type { Kysely } from 'kysely';
import { replaceChecks } from '../dialect.ts';

/**
 * Following (DECISIONS.md "Fifth wave" → "Following"). `follows`: one row per user and
 * streamer (the primary key makes a repeat change nothing), gone with either (foreign keys with
 * cascade: deleting the account or the streamer removes its follows); the streamer's index
 * serves the followers' count of the list and the live notifications' fan-out.
 *
 * Notifications get the kind `live` and the stream it is about: `stream_id`, unique with the
 * recipient, so live sync notifies a follower at most once per stream however often it runs
 * (every other kind leaves it null, which a unique index never compares equal). No reference,
 * as in the event log: a stream pruned after a year leaves its notification as it was (ids are
 * never used again).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('follows')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('streamer_id', 'integer', (c) => c.notNull().references('streamers.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('follows_pkey', ['user_id', 'streamer_id'])
    .execute();
  await db.schema.createIndex('follows_streamer').on('follows').column('streamer_id').execute();

  await db.schema.alterTable('notifications').addColumn('stream_id', 'integer').execute();
  await replaceChecks(db, 'notifications', {
    notifications_kind_check: `"kind" in ('reply', 'mention', 'like', 'hidden', 'rated', 'live')`,
  });
  await db.schema
    .createIndex('notifications_live_once')
    .on('notifications')
    .columns(['stream_id', 'user_id'])
    .unique()
    .execute();
}
