import { type CompiledQuery, type InferResult, sql } from 'kysely';
import { ADMIN_GENERATION_KEY } from '../auth/admin-password.ts';
import { announceSessionChange, contentVersion } from '../db/changes.ts';
import type { Db } from '../db/schema.ts';
import type { Provider } from '../shared/rules.ts';
import type { SessionData } from './session.ts';

/** The session's user as every request needs it: who, banned, moderator, administrator. */
export interface SessionUserRow {
  id: number;
  provider: Provider;
  provider_id: string;
  login: string;
  display_name: string;
  avatar: string;
  banned: boolean;
  is_mod: boolean;
  /** A personal administrator account. */
  is_admin: boolean;
}

export interface StoredSession {
  key: string;
  data: string;
  created_at: string;
  seen_at: string;
  /** The two times as epoch milliseconds, parsed once per load (not once per request). */
  createdMs: number;
  seenMs: number;
  /** `data` parsed, filled in by the first request that reads this (cached) row. */
  parsed?: SessionData;
  /** The signed-in user's current record, or null (none, or deleted). */
  user: SessionUserRow | null;
  /** The shared password's current generation (auth/admin-password.ts), '' before the first change. */
  adminGeneration: string;
}

function loadQuery(db: Db, key: string) {
  return db
    .selectFrom('sessions as s')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('moderators as m', 'm.user_id', 's.user_id')
    .leftJoin('secrets as g', (join) => join.on('g.key', '=', sql.lit(ADMIN_GENERATION_KEY)))
    .select([
      's.id as key',
      's.data',
      's.created_at',
      's.seen_at',
      'u.id',
      'u.provider',
      'u.provider_id',
      'u.login',
      'u.display_name',
      'u.avatar',
      'u.banned',
      'u.is_admin',
      'm.user_id as mod_id',
      'g.value as admin_gen',
    ])
    .where('s.id', '=', key);
}

type LoadRow = InferResult<ReturnType<typeof loadQuery>>[number];
const compiledLoads = new WeakMap<Db, CompiledQuery<LoadRow>>();

/**
 * A session and its user in one indexed lookup (the key is the primary key). The query is
 * built and compiled once per database; each call runs it with its own key.
 */
export async function loadSession(db: Db, key: string): Promise<StoredSession | undefined> {
  let compiled = compiledLoads.get(db);
  if (!compiled) compiledLoads.set(db, (compiled = loadQuery(db, '').compile()));
  const query: CompiledQuery<LoadRow> = { ...compiled, parameters: [key] };
  const [row] = (await db.executeQuery(query)).rows;
  if (!row) return undefined;
  const { key: k, data, created_at, seen_at, id, banned, is_admin, mod_id, admin_gen, ...user } = row;
  return {
    key: k,
    data,
    created_at,
    seen_at,
    createdMs: Date.parse(created_at),
    seenMs: Date.parse(seen_at),
    adminGeneration: admin_gen ?? '',
    user:
      id === null || user.provider === null
        ? null
        : {
            id,
            provider: user.provider,
            provider_id: user.provider_id ?? '',
            login: user.login ?? '',
            display_name: user.display_name ?? '',
            avatar: user.avatar ?? '',
            banned: banned === 1,
            is_mod: mod_id !== null,
            is_admin: is_admin === 1 && banned !== 1,
          },
  };
}

/** Sessions kept in memory per database, at most this many (then all are forgotten). */
const CACHED = 1024;
const caches = new WeakMap<Db, Map<string, { row: StoredSession; version: number }>>();

/**
 * The cached row of this session, while nothing that a session row or its user shows can
 * have changed (no query, no promise): the entry is labelled with the session version
 * (db/changes.ts), which every session write and every content write moves in this instance
 * at once and in other instances through NOTIFY or data_version (within half a second on
 * SQLite). The idle and absolute timeouts are still checked by the caller on every request.
 */
export function cachedSession(db: Db, key: string): StoredSession | undefined {
  const hit = caches.get(db)?.get(key);
  return hit && hit.version === contentVersion(db).sessions ? hit.row : undefined;
}

/** The session from the database, cached for the next requests. */
export async function loadAndCache(db: Db, key: string): Promise<StoredSession | undefined> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map<string, { row: StoredSession; version: number }>()));
  // The version before the lookup: a write during it makes the entry stale at once.
  const version = contentVersion(db).sessions;
  const row = await loadSession(db, key);
  if (!row) {
    cache.delete(key);
    return undefined;
  }
  if (cache.size >= CACHED) cache.clear();
  cache.set(key, { row, version });
  return row;
}

export async function insertSession(
  db: Db,
  s: { key: string; data: string; user_id: number | null; now: string },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({ id: s.key, data: s.data, user_id: s.user_id, created_at: s.now, seen_at: s.now })
    .execute();
  await announceSessionChange(db);
}

export async function updateSession(
  db: Db,
  key: string,
  s: { data: string; user_id: number | null; now: string },
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ data: s.data, user_id: s.user_id, seen_at: s.now })
    .where('id', '=', key)
    .execute();
  await announceSessionChange(db);
}

export async function touchSession(db: Db, key: string, now: string): Promise<void> {
  await db.updateTable('sessions').set({ seen_at: now }).where('id', '=', key).execute();
  await announceSessionChange(db);
}

export async function deleteSession(db: Db, key: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', key).execute();
  await announceSessionChange(db);
}

/** Deletes sessions past their idle or absolute timeout. */
export async function purgeSessions(db: Db, idleBefore: string, createdBefore: string): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('seen_at', '<', idleBefore), eb('created_at', '<', createdBefore)]))
    .execute();
  await announceSessionChange(db);
}

/** Ends every session of a user; answers how many there were. */
export async function deleteUserSessions(db: Db, userId: number): Promise<number> {
  const result = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
  await announceSessionChange(db);
  return Number(result.numDeletedRows);
}
