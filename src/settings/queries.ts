import type { Db } from '../db/schema.ts';

export async function getSetting(db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
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
