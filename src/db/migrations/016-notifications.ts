import { type Kysely, sql } from 'kysely';
import { idColumn } from '../dialect.ts';

/**
 * Notifications (DECISIONS.md "Fourth wave" → "Notifications"), written in the transaction of
 * the change that causes them. The database holds "never twice": one per kind, comment and
 * recipient (`like`: one per comment and liker), by partial unique indexes that every insert
 * meets with `on conflict do nothing`; and "never one's own action" by a CHECK where the
 * actor is known. A deleted comment leaves its notifications without a comment (left out of
 * the list, except `hidden`); a deleted recipient takes theirs along.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = idColumn(db);
  await db.schema
    .createTable('notifications')
    .addColumn('id', idType, idDef)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('streamer_id', 'integer', (c) => c.notNull().references('streamers.id').onDelete('cascade'))
    .addColumn('comment_id', 'integer', (c) => c.references('comments.id').onDelete('set null'))
    /** The signed-in user whose action caused it (the liker, the comment's author, the staff member). */
    .addColumn('actor_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('read', 'integer', (c) => c.notNull().defaultTo(0))
    .addCheckConstraint(
      'notifications_kind_check',
      sql`"kind" in ('reply', 'mention', 'like', 'hidden', 'rated')`,
    )
    .addCheckConstraint('notifications_read_check', sql`"read" in (0, 1)`)
    .addCheckConstraint(
      'notifications_not_own_check',
      sql`"actor_user_id" is null or "actor_user_id" <> "user_id"`,
    )
    .execute();
  await db.schema
    .createIndex('notifications_once')
    .on('notifications')
    .columns(['kind', 'comment_id', 'user_id'])
    .unique()
    .where(sql.ref('kind'), '<>', 'like')
    .execute();
  await db.schema
    .createIndex('notifications_like_once')
    .on('notifications')
    .columns(['comment_id', 'actor_user_id'])
    .unique()
    .where(sql.ref('kind'), '=', 'like')
    .execute();
  // The list and the count: one user's, newest first.
  await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('notifications_comment').on('notifications').column('comment_id').execute();
  await db.schema.createIndex('notifications_actor').on('notifications').column('actor_user_id').execute();
  await db.schema.createIndex('notifications_streamer').on('notifications').column('streamer_id').execute();
}
