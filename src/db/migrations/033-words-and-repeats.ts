import type { Kysely } from 'kysely';

/**
 * Words and repeats (DECISIONS.md "Fifth wave" → "Words and repeats", issue 45 item 17).
 *
 * `hold_words`: the administrator's list, one row per entry in the order given (`position`),
 * as entered (`word`, what `GET /api/settings` shows) and folded into words (`fold`, what a
 * comment's folded words are searched for, lib/names.ts `foldWords`). A table rather than a
 * setting's text: the rule that holds a comment asks it with the post's other rules, in SQL.
 *
 * `comments.repeat_key`: a digest of the comment's folded body, so that the rule against
 * repeats compares one short key with the author's comments of the last 10 minutes (found by
 * the author's index, `comments_user_idx` or `comments_guest_tag_idx`). Comments stored before
 * have none and repeat nothing.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('hold_words')
    .addColumn('position', 'integer', (c) => c.primaryKey())
    .addColumn('word', 'text', (c) => c.notNull())
    .addColumn('fold', 'text', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('comments').addColumn('repeat_key', 'text').execute();
}
