import type { Kysely } from 'kysely';
import { foldName } from '../../lib/names.ts';

/**
 * Name folding drops invisible characters (bidi controls, fillers such as U+3164) and makes
 * `i` and `l` one letter, the skeleton of either case (issue 45, item 9; lib/names.ts): every
 * user's stored folds are made again with it, so that `agraeIus` meets the `agraelus` who
 * signed in before. Only the folds change, never a name, and only where they differ.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  const users = (await db
    .selectFrom('users')
    .select(['id', 'login', 'display_name', 'login_fold', 'display_fold'])
    .execute()) as {
    id: number;
    login: string;
    display_name: string;
    login_fold: string;
    display_fold: string;
  }[];
  for (const u of users) {
    const folds = { login_fold: foldName(u.login), display_fold: foldName(u.display_name) };
    if (folds.login_fold === u.login_fold && folds.display_fold === u.display_fold) continue;
    await db.updateTable('users').set(folds).where('id', '=', u.id).execute();
  }
}
