import { type Kysely, sql } from 'kysely';
import { idColumn } from '../dialect.ts';

/**
 * Taking part (DECISIONS.md "Third wave"): replies one level deep, likes (one per user and
 * comment), the audience score (one vote per user and streamer, 1 to 10), and the rating
 * history (a row per rating write).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = idColumn(db);

  // A reply whose comment is deleted stays, as a comment of its own: nothing written is lost.
  await db.schema
    .alterTable('comments')
    .addColumn('reply_to', 'integer', (c) => c.references('comments.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('comments_reply_idx').on('comments').column('reply_to').execute();

  await db.schema
    .createTable('comment_likes')
    .addColumn('comment_id', 'integer', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('comment_likes_pk', ['comment_id', 'user_id'])
    .execute();
  await db.schema.createIndex('comment_likes_user_idx').on('comment_likes').column('user_id').execute();

  await db.schema
    .createTable('votes')
    .addColumn('streamer_id', 'integer', (c) => c.notNull().references('streamers.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('score', 'integer', (c) => c.notNull().check(sql`score between 1 and 10`))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('votes_pk', ['streamer_id', 'user_id'])
    .execute();
  await db.schema.createIndex('votes_user_idx').on('votes').column('user_id').execute();

  await db.schema
    .createTable('rating_history')
    .addColumn('id', idType, idDef)
    .addColumn('streamer_id', 'integer', (c) => c.notNull().references('streamers.id').onDelete('cascade'))
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('s', 'integer', (c) => c.notNull())
    .addColumn('g', 'integer', (c) => c.notNull())
    .addColumn('a', 'integer', (c) => c.notNull())
    .addColumn('v', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('ns', 'integer', (c) => c.notNull())
    .addColumn('o', 'integer', (c) => c.notNull())
    .addColumn('reward', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('rating_history_streamer_idx')
    .on('rating_history')
    .columns(['streamer_id', 'id'])
    .execute();
  // The ratings that exist today are their history's first row.
  await sql`insert into rating_history (streamer_id, at, s, g, a, v, n, ns, o, reward)
    select streamer_id, updated_at, s, g, a, v, n, ns, o, reward from ratings order by streamer_id`.execute(
    db,
  );
}
