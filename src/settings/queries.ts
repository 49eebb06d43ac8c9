import { compiledOnce } from '../db/compiled.ts';
import type { Db } from '../db/schema.ts';

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

/** SPEC.md: commenting requires sign-in exactly when auth_enabled is the string `true`. */
export async function authRequiredToComment(db: Db): Promise<boolean> {
  return (await getSetting(db, 'auth_enabled')) === 'true';
}
