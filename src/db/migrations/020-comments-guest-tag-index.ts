import type { Kysely } from 'kysely';

/**
 * Migration 006's index of comments by guest tag alone is the first column of migration 013's
 * burst index (guest tag, then time), which answers every read it served (a guest's posts,
 * moderation by address, bans): one index fewer for every comment written to update.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('comments_guest_tag_idx').execute();
}
