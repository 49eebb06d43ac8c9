import type { Kysely } from 'kysely';
import { foldName, foldWords } from '../../lib/names.ts';

/**
 * The stored folds made again with today's fold (lib/names.ts), after a change of it: every
 * user's `login_fold` and `display_fold`, and the held words' `fold`. Only the folds change,
 * never a name or a word, and only rows whose folds differ are written.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function refoldUsers(db: Kysely<any>): Promise<void> {
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

/** The held words' folds (migration 033's `hold_words`), made again the same way. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function refoldWords(db: Kysely<any>): Promise<void> {
  const words = (await db.selectFrom('hold_words').select(['position', 'word', 'fold']).execute()) as {
    position: number;
    word: string;
    fold: string;
  }[];
  for (const w of words) {
    const fold = foldWords(w.word);
    if (fold === w.fold) continue;
    await db.updateTable('hold_words').set({ fold }).where('position', '=', w.position).execute();
  }
}
