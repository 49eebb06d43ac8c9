import { sql } from 'kysely';
import { announceSessionChange } from '../db/other-instances.ts';
import { compiledOnce } from '../db/compiled.ts';
import type { DbContext } from '../db/context.ts';
import type { Db } from '../db/schema.ts';
import { writeTransaction } from '../db/transaction.ts';
import type { Provider } from '../shared/rules.ts';
import { rememberAddress } from './addresses.ts';
import type { SessionData } from './session.ts';

/**
 * The shared password's generation: a random value that every change of the password
 * replaces. A session that got the administrator flag from the password remembers the
 * generation it got it under (`admin_gen`) and keeps the flag only while it is current; the
 * session lookup reads the current one with the session (sessions/store.ts), so a change
 * reaches every instance with the next lookup, which the change itself triggers (the content
 * version moves through NOTIFY or SQLite's data_version).
 */
export const ADMIN_GENERATION_KEY = 'admin_password_generation';

/** The session's user as every request needs it: who, banned, moderator, administrator, in a team. */
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
  /** A moderator's time-out (issue 29): no writes until then. */
  timeout_until: string | null;
  /** Maybe a banned user's return: comments held until staff approve one. */
  held: boolean;
  /** A member of some team: the Team view is theirs unless they are staff (streamers/policy.ts). */
  in_team: boolean;
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
  /** When the administrator logged in (epoch ms, NaN when not), parsed with `parsed`. */
  adminSinceMs?: number;
  /** The signed-in user's current record, or null (none, or deleted). */
  user: SessionUserRow | null;
  /** The shared password's current generation (auth/admin-password.ts), '' before the first change. */
  adminGeneration: string;
  /** The address the session last recorded (sessions/addresses.ts), and when (epoch ms, NaN: never). */
  address: { tag: string | null; atMs: number };
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
      's.guest_tag',
      's.guest_tag_at',
      'u.id',
      'u.provider',
      'u.provider_id',
      'u.login',
      'u.display_name',
      'u.avatar',
      'u.banned',
      'u.is_admin',
      'u.timeout_until',
      'u.held',
      'm.user_id as mod_id',
      'g.value as admin_gen',
      (eb) =>
        eb
          .exists(
            eb.selectFrom('rater_group_members as t').select('t.id').whereRef('t.user_id', '=', 's.user_id'),
          )
          .as('in_team'),
    ])
    .where('s.id', '=', key);
}

/**
 * A session and its user in one indexed lookup (the key is the primary key). The query is
 * built and compiled once per dialect; each call runs it with its own key.
 */
const loadCompiled = compiledOnce((db) => loadQuery(db, ''));

export async function loadSession(db: Db, key: string): Promise<StoredSession | undefined> {
  const [row] = (await loadCompiled(db, [key])).rows;
  if (!row) return undefined;
  const {
    key: k,
    data,
    created_at,
    seen_at,
    guest_tag,
    guest_tag_at,
    id,
    banned,
    is_admin,
    mod_id,
    admin_gen,
    in_team,
    ...user
  } = row;
  return {
    key: k,
    data,
    created_at,
    seen_at,
    createdMs: Date.parse(created_at),
    seenMs: Date.parse(seen_at),
    adminGeneration: admin_gen ?? '',
    address: { tag: guest_tag, atMs: Date.parse(guest_tag_at ?? '') },
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
            timeout_until: user.timeout_until ?? null,
            held: user.held === 1,
            // SQLite answers 0 or 1, PostgreSQL a boolean.
            in_team: in_team === 1 || in_team === true,
          },
  };
}

/** Sessions kept in memory, at most this many (then all are forgotten). */
const CACHED = 1024;

/**
 * The sessions of one database as an app reads and writes them: each write tells this
 * instance's cache at once and other instances through NOTIFY or data_version
 * (announceSessionChange), and rows read since their last change are kept in memory.
 */
export class SessionStore {
  readonly #cache = new Map<string, { row: StoredSession; version: number }>();

  constructor(readonly ctx: DbContext) {}

  /**
   * The cached row of this session, while nothing that a session row or its user shows can
   * have changed (no query, no promise): the entry is labelled with the session version
   * (db/changes.ts), which every session write and every content write moves in this instance
   * at once and in other instances through NOTIFY or data_version (within half a second on
   * SQLite). The idle and absolute timeouts are still checked by the caller on every request.
   */
  cached(key: string): StoredSession | undefined {
    const hit = this.#cache.get(key);
    return hit && hit.version === this.ctx.changes.sessions ? hit.row : undefined;
  }

  /** The session from the database, cached for the next requests. */
  async loadAndCache(key: string): Promise<StoredSession | undefined> {
    // The version before the lookup: a write during it makes the entry stale at once.
    const version = this.ctx.changes.sessions;
    const row = await loadSession(this.ctx.db, key);
    if (!row) {
      this.#cache.delete(key);
      return undefined;
    }
    if (this.#cache.size >= CACHED) this.#cache.clear();
    this.#cache.set(key, { row, version });
    return row;
  }

  async insert(s: { key: string; data: string; user_id: number | null; now: string }): Promise<void> {
    await this.ctx.db
      .insertInto('sessions')
      .values({ id: s.key, data: s.data, user_id: s.user_id, created_at: s.now, seen_at: s.now })
      .execute();
    await announceSessionChange(this.ctx);
  }

  async update(key: string, s: { data: string; user_id: number | null; now: string }): Promise<void> {
    await this.ctx.db
      .updateTable('sessions')
      .set({ data: s.data, user_id: s.user_id, seen_at: s.now })
      .where('id', '=', key)
      .execute();
    await announceSessionChange(this.ctx);
  }

  async touch(key: string, now: string): Promise<void> {
    await this.ctx.db.updateTable('sessions').set({ seen_at: now }).where('id', '=', key).execute();
    await announceSessionChange(this.ctx);
  }

  /**
   * Records the address a session of this user uses (sessions/addresses.ts), and that the
   * session recorded it: no answer shows either, so no cache is told (`none`); this instance's
   * cached row learns it at once, another instance's writes the same once more.
   */
  async recordAddress(key: string, userId: number, tag: string, now: string): Promise<void> {
    await writeTransaction(
      this.ctx,
      async (trx) => {
        await rememberAddress(trx, userId, tag, now);
        await trx
          .updateTable('sessions')
          .set({ guest_tag: tag, guest_tag_at: now })
          .where('id', '=', key)
          .execute();
      },
      'none',
    );
    const hit = this.#cache.get(key);
    if (hit) hit.row.address = { tag, atMs: Date.parse(now) };
  }

  async delete(key: string): Promise<void> {
    await this.ctx.db.deleteFrom('sessions').where('id', '=', key).execute();
    await announceSessionChange(this.ctx);
  }

  /** Deletes sessions past their idle or absolute timeout. */
  async purge(idleBefore: string, createdBefore: string): Promise<void> {
    await this.ctx.db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('seen_at', '<', idleBefore), eb('created_at', '<', createdBefore)]))
      .execute();
    await announceSessionChange(this.ctx);
  }
}

/**
 * Ends every session of a user; answers how many there were. Inside writeTransaction, whose
 * commit tells every instance; outside one, announce the change (announceSessionChange).
 */
export async function deleteUserSessions(db: Db, userId: number): Promise<number> {
  const result = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
