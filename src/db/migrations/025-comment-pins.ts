import { type Kysely, sql } from 'kysely';
import { addChecks } from '../dialect.ts';

/**
 * Pinned comments (DECISIONS.md "Comments: pinned and ordered"): `comments.pinned`, 0 or 1. One
 * pinned comment per streamer is the database's rule, a partial unique index, so two pins that
 * race cannot both commit; a pinned comment is top-level and shown (hiding unpins it).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('comments')
    .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await addChecks(db, 'comments', {
    comments_pinned_check: `"pinned" in (0, 1)`,
    comments_pinned_shown_check: `"pinned" = 0 or ("hidden" = 0 and "reply_to" is null)`,
  });
  await sql`create unique index comments_one_pin_idx on comments (streamer_id) where pinned = 1`.execute(db);
}
