import { type Kysely, sql } from 'kysely';

/**
 * Whether a notification is shown (DECISIONS.md "Notifications": a `reply`, `mention` or `like`
 * is left out once its comment is hidden or deleted), stored on the notification so that the
 * unread count is one index range instead of a read of each unread notification's comment.
 * The paths that hide, show or delete comments keep it, in their transaction
 * (notifications/notify.ts); notifications are written only about a published, visible
 * comment, so a new one is shown. Filled here from the comments as they are.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('notifications')
    .addColumn('shown', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`"shown" in (0, 1)`),
    )
    .execute();
  await sql`
    update notifications set shown = 0
    where kind in ('reply', 'mention', 'like')
      and (comment_id is null or comment_id in (select id from comments where hidden = 1))
  `.execute(db);
  // The unread count: an equality on all three columns, one range of this index.
  await db.schema
    .createIndex('notifications_unread')
    .on('notifications')
    .columns(['user_id', 'read', 'shown'])
    .execute();
  // The list, newest first: the user's shown ones in the order of their ids. It replaces the
  // index on (user_id, id), which SQLite then passed over for the one above and sorted all.
  await db.schema
    .createIndex('notifications_list')
    .on('notifications')
    .columns(['user_id', 'shown', 'id'])
    .execute();
  await db.schema.dropIndex('notifications_user').execute();
}
