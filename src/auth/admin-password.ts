import { createHash, randomBytes } from 'node:crypto';
import { ADMIN_GENERATION_KEY } from '../sessions/store.ts';
import type { Config } from '../config/config.ts';
import type { DbContext } from '../db/context.ts';
import type { Db } from '../db/schema.ts';
import { writeTransaction } from '../db/transaction.ts';
import { hashPassword } from './passwords.ts';

const KEY = 'admin_password_hash';

/** ADMIN_PASSWORD_HASH as last seen at start: a new one ends the old password's sessions. */
const ENVIRONMENT_KEY = 'admin_password_environment';

async function newGeneration(db: Db): Promise<void> {
  const value = randomBytes(9).toString('base64url');
  await db
    .insertInto('secrets')
    .values({ key: ADMIN_GENERATION_KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/** The shared password's current generation ('' before its first change). */
export async function adminGeneration(db: Db): Promise<string> {
  const row = await db
    .selectFrom('secrets')
    .select('value')
    .where('key', '=', ADMIN_GENERATION_KEY)
    .executeTakeFirst();
  return row?.value ?? '';
}

/**
 * Changes the shared password: the new hash, and a new generation, so that every session
 * that got the administrator flag from the old password loses it at once, on every instance;
 * `record` writes the audit entry in the same transaction.
 */
export async function changeAdminPassword(
  database: DbContext,
  password: string,
  record: (trx: Db) => Promise<void>,
): Promise<void> {
  const hash = await hashPassword(password);
  await writeTransaction(database, async (trx) => {
    await storeAdminHash(trx, hash);
    await newGeneration(trx);
    await record(trx);
  });
}

/**
 * At start: when ADMIN_PASSWORD_HASH differs from the one the database last saw, the password
 * was rotated through the environment, and the old one's sessions end as after a change.
 */
export async function noteEnvironmentPassword(database: DbContext, config: Config): Promise<void> {
  if (!config.adminPasswordHash) return;
  const { db } = database;
  const seen = createHash('sha256').update(config.adminPasswordHash).digest('hex');
  const row = await db
    .selectFrom('secrets')
    .select('value')
    .where('key', '=', ENVIRONMENT_KEY)
    .executeTakeFirst();
  if (row?.value === seen) return;
  await writeTransaction(database, async (trx) => {
    await trx
      .insertInto('secrets')
      .values({ key: ENVIRONMENT_KEY, value: seen })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: seen }))
      .execute();
    // The first start with a hash from the environment keeps the sessions it finds.
    if (row) await newGeneration(trx);
  });
}

/** The password comes from the environment (ADMIN_PASSWORD_HASH or ADMIN_PASSWORD): not changeable here. */
export const passwordFromEnvironment = (config: Config): boolean =>
  Boolean(config.adminPasswordHash || config.adminPassword);

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
  if (passwordFromEnvironment(config)) return null;
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
