import { type Kysely, sql } from 'kysely';
import { addChecks } from '../dialect.ts';

/**
 * Comments that can be hidden (by staff, or by their author) and edited by their author
 * (DECISIONS.md "Second wave / Comments"), and a partial index of the visible ones by id:
 * a page of comments (`limit`, `before`) and `comment_count` are one index range each.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('comments')
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  /** `author` or `staff`: an author may show again only what they hid themselves. */
  await db.schema.alterTable('comments').addColumn('hidden_by', 'text').execute();
  await db.schema.alterTable('comments').addColumn('edited_at', 'text').execute();
  await addChecks(db, 'comments', {
    comments_hidden_check: `"hidden" in (0, 1)`,
    comments_hidden_by_check: `"hidden_by" is null or "hidden_by" in ('author', 'staff')`,
  });
  await sql`create index comments_visible_idx on comments (streamer_id, id) where hidden = 0`.execute(db);
  await db.schema.createIndex('comments_user_idx').on('comments').column('user_id').execute();
}
