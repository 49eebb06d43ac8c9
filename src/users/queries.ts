import { sql } from 'kysely';
import type { Db, User } from '../db/schema.ts';
import { foldCase } from '../shared/rules.ts';
import { foldName } from '../lib/names.ts';
import { forgetBan, rememberBan } from './bans.ts';

/** A user for the administrator's list. */
export type UserListItem = Pick<
  User,
  'id' | 'provider' | 'provider_id' | 'login' | 'display_name' | 'avatar' | 'last_seen'
> & { banned: boolean; is_mod: boolean; is_admin: boolean; timeout_until: string | null; held: boolean };

/** One user with the ban and moderator flags, or undefined. */
export async function findUser(db: Db, id: number): Promise<UserListItem | undefined> {
  return (await usersQuery(db).where('users.id', '=', id).execute()).map(toItem)[0];
}

function usersQuery(db: Db) {
  return db
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
      'users.is_admin',
      'users.timeout_until',
      'users.held',
      'moderators.user_id as mod_id',
    ]);
}

const toItem = ({
  banned,
  is_admin,
  mod_id,
  held,
  ...u
}: { banned: number | null; is_admin: number; mod_id: number | null; held: number } & Omit<
  UserListItem,
  'banned' | 'is_mod' | 'is_admin' | 'held'
>): UserListItem => ({
  ...u,
  banned: banned === 1,
  is_mod: mod_id !== null,
  is_admin: is_admin === 1,
  held: held === 1,
});

/**
 * Users, most recently seen first: `q` matches login or display name, `id` names one user (the
 * page asks a comment's author's ban and time-out); `limit` for the API's pages, none for the
 * command-line tool.
 */
export async function listUsers(
  db: Db,
  { q, id, limit }: { q?: string; id?: number; limit?: number } = {},
): Promise<UserListItem[]> {
  let query = usersQuery(db);
  if (id !== undefined) query = query.where('users.id', '=', id);
  if (q) {
    // Case-insensitive the same way on both databases: both sides folded by the service
    // (SQLite's LIKE folds only ASCII, PostgreSQL's folds nothing), wildcards escaped.
    const pattern = `%${foldCase(q).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const like = sql<string>`${pattern} escape '\\'`;
    query = query.where((eb) =>
      eb.or([eb('users.login_key', 'like', like), eb('users.display_key', 'like', like)]),
    );
  }
  query = query.orderBy('users.last_seen', 'desc').orderBy('users.id');
  const rows = await (limit === undefined ? query : query.limit(limit)).execute();
  return rows.map(toItem);
}

/**
 * Bans or unbans; a ban also clears the administrator flag (DECISIONS.md, and a CHECK) and is
 * kept by the person at the provider so that it outlives the account (users/bans.ts).
 */
export async function setBanned(db: Db, id: number, banned: boolean, now: Date): Promise<void> {
  const user = await db
    .updateTable('users')
    .set(banned ? { banned: 1, is_admin: 0 } : { banned: 0 })
    .where('id', '=', id)
    .returning(['id', 'provider', 'provider_id'])
    .executeTakeFirst();
  if (!user) return;
  if (banned) await rememberBan(db, user, now);
  else await forgetBan(db, user);
}

/** A time-out until `until` (ISO), or none. */
export async function setTimeoutUntil(db: Db, id: number, until: string | null): Promise<void> {
  await db.updateTable('users').set({ timeout_until: until }).where('id', '=', id).execute();
}

export async function setAdmin(db: Db, id: number, isAdmin: boolean): Promise<void> {
  await db
    .updateTable('users')
    .set({ is_admin: isAdmin ? 1 : 0 })
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

export type ProviderProfile = Pick<User, 'provider' | 'provider_id' | 'login' | 'display_name' | 'avatar'>;

/**
 * SPEC.md's upsert: a user is identified by (provider, provider_id); when present, login,
 * display name, avatar and last_seen are updated, otherwise the user is created.
 */
export async function upsertUser(db: Db, profile: ProviderProfile, now: string) {
  const changes = {
    login: profile.login,
    login_key: foldCase(profile.login),
    display_name: profile.display_name,
    display_key: foldCase(profile.display_name),
    login_fold: foldName(profile.login),
    display_fold: foldName(profile.display_name),
    avatar: profile.avatar,
    last_seen: now,
  };
  return db
    .insertInto('users')
    .values({ ...profile, ...changes, banned: null, created_at: now })
    .onConflict((oc) => oc.columns(['provider', 'provider_id']).doUpdateSet(changes))
    .returning(['id', 'provider', 'login', 'display_name', 'avatar'])
    .executeTakeFirstOrThrow();
}

/** Any user of this provider whose login matches without regard to case, banned or not. */
export async function findUserByLogin(db: Db, provider: User['provider'], login: string) {
  return db
    .selectFrom('users')
    .select(['id', 'provider', 'login', 'display_name', 'banned'])
    .where('provider', '=', provider)
    .where('login_key', '=', foldCase(login))
    .orderBy('id')
    .executeTakeFirst();
}
