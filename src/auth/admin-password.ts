import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Db } from '../db/schema.ts';
import { hashPassword } from './passwords.ts';

const KEY = 'admin_password_hash';

export async function storedAdminHash(db: Db): Promise<string | undefined> {
  const row = await db.selectFrom('secrets').select('value').where('key', '=', KEY).executeTakeFirst();
  return row?.value;
}

export async function storeAdminHash(db: Db, value: string): Promise<void> {
  await db
    .insertInto('secrets')
    .values({ key: KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/**
 * Where the administrator password hash comes from, first match wins (DECISIONS.md):
 * ADMIN_PASSWORD_HASH; ADMIN_PASSWORD (hashed once, at the first login rather than at start:
 * argon2id takes 19 MiB and tens of milliseconds); the database. Returns a function, because a
 * hash in the database can be changed by the command-line tool while we run.
 */
export async function adminHashSource(config: Config): Promise<(db: Db) => Promise<string | undefined>> {
  if (config.adminPasswordHash) {
    const fixed = config.adminPasswordHash;
    return async () => fixed;
  }
  if (config.adminPassword) {
    const password = config.adminPassword;
    let fixed: Promise<string> | undefined;
    return () => (fixed ??= hashPassword(password));
  }
  return storedAdminHash;
}

/**
 * On the very first start with no password configured: generate one, store its hash and
 * return it (to be printed once). Several instances starting together: only the one whose
 * insert wins gets a password back.
 */
export async function generateAdminPasswordIfNone(db: Db, config: Config): Promise<string | null> {
  if (config.adminPasswordHash || config.adminPassword) return null;
  if (await storedAdminHash(db)) return null;
  const password = randomBytes(15).toString('base64url');
  const inserted = await db
    .insertInto('secrets')
    .values({ key: KEY, value: await hashPassword(password) })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 ? password : null;
}

/** A server secret generated once and shared through the database by every instance. */
export async function sharedSecret(db: Db, key: string): Promise<string> {
  await db
    .insertInto('secrets')
    .values({ key, value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('secrets').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return row.value;
}
