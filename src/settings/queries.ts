import { sql } from 'kysely';
import { compiledOnce } from '../db/compiled.ts';
import type { Db } from '../db/schema.ts';
import { foldWords } from '../lib/names.ts';
import { GUEST_CHALLENGES, GUEST_HOLDS } from '../shared/rules.ts';

const getSettingQuery = compiledOnce((db) => db.selectFrom('settings').select('value').where('key', '=', ''));

export async function getSetting(db: Db, key: string): Promise<string | undefined> {
  return (await getSettingQuery(db, [key])).rows[0]?.value;
}

export async function setSetting(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/**
 * A setting of a closed set of words as an SQL expression, its first word when unset or unknown:
 * read alone (`choiceSetting`) or inside the rules that depend on it (comments/hold.ts).
 */
export const choiceSql = (key: string, words: readonly string[]) =>
  sql<string>`coalesce((select value from settings
    where key = ${sql.lit(key)} and value in (${sql.join(words.map((word) => sql.lit(word)))})), ${sql.lit(words[0])})`;

/** A setting of a closed set of words, its first word when unset or unknown. */
export async function choiceSetting<T extends string>(db: Db, key: string, words: readonly T[]): Promise<T> {
  const { rows } = await sql<{ value: T }>`select ${choiceSql(key, words)} as value`.execute(db);
  return rows[0]?.value ?? (words[0] as T);
}

export const guestHold = (db: Db) => choiceSetting(db, 'guest_hold', GUEST_HOLDS);
export const guestChallenge = (db: Db) => choiceSetting(db, 'guest_challenge', GUEST_CHALLENGES);

/** SPEC.md: commenting requires sign-in exactly when auth_enabled is the string `true`. */
export async function authRequiredToComment(db: Db): Promise<boolean> {
  return (await getSetting(db, 'auth_enabled')) === 'true';
}

/** A flag setting, false unless set to `true`. */
export async function flagSetting(db: Db, key: string): Promise<boolean> {
  return (await getSetting(db, key)) === 'true';
}

/** The administrator's words that hold a comment, in their order (DECISIONS.md "Words and repeats"). */
export async function holdWords(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('hold_words').select('word').orderBy('position').execute();
  return rows.map((r) => r.word);
}

/** Replaces the words, each stored folded too (comments/hold.ts asks the folds). */
export async function replaceHoldWords(db: Db, words: readonly string[]): Promise<void> {
  await db.deleteFrom('hold_words').execute();
  if (words.length === 0) return;
  await db
    .insertInto('hold_words')
    .values(words.map((word, position) => ({ position, word, fold: foldWords(word) })))
    .execute();
}

/** A text setting, null when unset or emptied. */
export async function textSetting(db: Db, key: string): Promise<string | null> {
  return (await getSetting(db, key)) || null;
}

/** Who runs the site and how to reach them (the privacy page, issue 30 item 22). */
export async function operatorOf(
  db: Db,
): Promise<{ operator_name: string | null; operator_contact: string | null }> {
  return {
    operator_name: await textSetting(db, 'operator_name'),
    operator_contact: await textSetting(db, 'operator_contact'),
  };
}
