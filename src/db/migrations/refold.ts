import type { Kysely } from 'kysely';
import { foldName, foldsOnce, foldWords } from '../../lib/names.ts';

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

/**
 * A table's `name_fold` (streamers: migration 045; teams: 047) made with today's fold, each
 * taken by the oldest row whose name folds to it (lib/names.ts `foldsOnce`): the others keep
 * their names and no fold, and a new row is still refused the fold. Cleared first, so that no
 * row meets another's old fold on the way.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function refoldNames(db: Kysely<any>, table: 'streamers' | 'rater_groups'): Promise<void> {
  const rows = (await db.selectFrom(table).select(['id', 'name', 'name_fold']).orderBy('id').execute()) as {
    id: number;
    name: string;
    name_fold: string | null;
  }[];
  const folds = foldsOnce(rows.map((s) => s.name));
  const changed = rows.filter((s, i) => folds[i] !== s.name_fold);
  for (const s of changed.filter((c) => c.name_fold !== null))
    await db.updateTable(table).set({ name_fold: null }).where('id', '=', s.id).execute();
  for (const [i, s] of rows.entries()) {
    if (folds[i] !== null && folds[i] !== s.name_fold)
      await db.updateTable(table).set({ name_fold: folds[i] }).where('id', '=', s.id).execute();
  }
}
