import { sql } from 'kysely';
import type { Db } from '../db/schema.ts';

export interface ViewerUser {
  id: number;
  provider: string;
  provider_id: string;
  login: string;
  display_name: string;
  avatar: string;
}

/** The session's user with the two facts every request needs: banned and moderator. */
export async function findViewer(
  db: Db,
  userId: number,
): Promise<{ user: ViewerUser; banned: boolean; isMod: boolean } | undefined> {
  const row = await db
    .selectFrom('users')
    .leftJoin('moderators', 'moderators.user_id', 'users.id')
    .select([
      'users.id',
      'users.provider',
      'users.provider_id',
      'users.login',
      'users.display_name',
      'users.avatar',
      'users.banned',
      'moderators.user_id as mod_id',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { banned, mod_id, ...user } = row;
  return { user, banned: banned === 1, isMod: mod_id !== null };
}

export interface UserListItem {
  id: number;
  provider: string;
  provider_id: string;
  login: string;
  display_name: string;
  avatar: string;
  last_seen: string;
  banned: boolean;
  is_mod: boolean;
}

/** Users for the administrator, newest sign-in first; `q` matches login or display name. */
export async function listUsers(db: Db, q?: string): Promise<UserListItem[]> {
  let query = db
    .selectFrom('users')
    .leftJoin('moderators', 'moderators.user_id', 'users.id')
    .select([
      'users.id',
      'users.provider',
      'users.provider_id',
      'users.login',
      'users.display_name',
      'users.avatar',
      'users.last_seen',
      'users.banned',
      'moderators.user_id as mod_id',
    ]);
  if (q) {
    const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['users.login']), 'like', sql<string>`${pattern} escape '\\'`),
        eb(eb.fn('lower', ['users.display_name']), 'like', sql<string>`${pattern} escape '\\'`),
      ]),
    );
  }
  const rows = await query.orderBy('users.last_seen', 'desc').orderBy('users.id').execute();
  return rows.map(({ banned, mod_id, ...u }) => ({ ...u, banned: banned === 1, is_mod: mod_id !== null }));
}

export async function setBanned(db: Db, id: number, banned: boolean): Promise<void> {
  await db
    .updateTable('users')
    .set({ banned: banned ? 1 : 0 })
    .where('id', '=', id)
    .execute();
}

export async function setModerator(db: Db, id: number, isMod: boolean): Promise<void> {
  if (isMod) {
    await db
      .insertInto('moderators')
      .values({ user_id: id })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
  } else {
    await db.deleteFrom('moderators').where('user_id', '=', id).execute();
  }
}

export interface ProviderProfile {
  provider: string;
  provider_id: string;
  login: string;
  display_name: string;
  avatar: string;
}

/**
 * SPEC.md's upsert: a user is identified by (provider, provider_id); when present, login,
 * display name, avatar and last_seen are updated, otherwise the user is created.
 */
export async function upsertUser(db: Db, profile: ProviderProfile, now: string) {
  const changes = {
    login: profile.login,
    display_name: profile.display_name,
    avatar: profile.avatar,
    last_seen: now,
  };
  return db
    .insertInto('users')
    .values({ ...profile, last_seen: now, banned: null, created_at: now })
    .onConflict((oc) => oc.columns(['provider', 'provider_id']).doUpdateSet(changes))
    .returning(['id', 'provider', 'login', 'display_name', 'avatar'])
    .executeTakeFirstOrThrow();
}

/** Any user of this provider whose login matches without regard to case, banned or not. */
export async function findUserByLogin(db: Db, provider: string, login: string) {
  return db
    .selectFrom('users')
    .select(['id', 'provider', 'login', 'display_name'])
    .where('provider', '=', provider)
    .where((eb) => eb(eb.fn('lower', ['login']), '=', login))
    .orderBy('id')
    .executeTakeFirst();
}
