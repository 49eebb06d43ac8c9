import type { Kysely } from 'kysely';
import { foldName } from '../../lib/names.ts';

/**
 * Name folding maps look-alike letters to their confusable skeleton and drops white space and
 * punctuation (DECISIONS.md "Names and limits"; issue 30, item 6): every user's stored folds
 * are made again with it, so that `Сarol` (Cyrillic С) meets the `Carol` who signed in before.
 * Only the folds change, never a name; new and updated users get them from users/queries.ts.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  const users = (await db.selectFrom('users').select(['id', 'login', 'display_name']).execute()) as {
    id: number;
    login: string;
    display_name: string;
  }[];
  for (const u of users) {
    await db
      .updateTable('users')
      .set({ login_fold: foldName(u.login), display_fold: foldName(u.display_name) })
      .where('id', '=', u.id)
      .execute();
  }
}
