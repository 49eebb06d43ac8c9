import { type Kysely, sql } from 'kysely';

/**
 * The hidden comments by streamer, for the list's comment counts: a hidden comment's replies
 * are hidden with it (DECISIONS.md "Comments"), so `comment_count` takes them off the count of
 * comments_counted_idx (migration 040). Hidden comments are few; this index finds them, and
 * comments_reply_idx their replies, without reading the rest.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index comments_hidden_idx on comments (streamer_id, id) where hidden = 1`.execute(db);
}
