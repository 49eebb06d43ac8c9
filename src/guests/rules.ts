import { type Expression, type RawBuilder, sql } from 'kysely';
import { isSqlite } from '../db/dialect.ts';
import type { Db } from '../db/schema.ts';
import { refusedBy, type SqlRule, type ValueType } from '../db/sql-rules.ts';
import { fail } from '../errors.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { choiceSql } from '../settings/queries.ts';
import { CHALLENGE, GUEST_CHALLENGES, type GuestChallenge } from '../shared/rules.ts';
import { timeOutRunsSql } from '../users/time-out.ts';
import { guestName } from './names.ts';

/**
 * What a guest (no signed-in user, no administrator flag: DECISIONS.md "Third wave") must pass
 * to comment or suggest: the session of a banned user stays banned after the ban signed it out,
 * and so does the session of a timed-out user who signed out while the time-out lasts (below),
 * a blocked address may not post, the name given may not be reserved or anyone's who has
 * signed in (banned users included: a ban is not a way to free a name), and the challenge
 * (guests/challenge.ts) must be solved when it is due (`CHALLENGE_DUE`, below).
 */

/** The values a guest's rules read. */
export type GuestValue = 'guestTag' | 'createdAt' | 'nameFold' | 'burstSince' | 'signedOut';

/** Their SQL types. */
export const GUEST_VALUES: Record<GuestValue, ValueType> = {
  guestTag: 'text',
  createdAt: 'text',
  nameFold: 'text',
  burstSince: 'text',
  signedOut: 'integer',
};

/**
 * A time-out follows the person out of their account (issue 45 item 5), as a ban does
 * (`bannedSession`): while it lasts, a guest's post from the browser whose session they signed
 * out of is refused as their own would be (403 `timed_out`). The browser, not the address: an
 * address is shared by strangers (a mobile network, a school, a proxy), whom DECISIONS.md's
 * time-out does not touch (docs/decisions.md). Whether it runs at the post's time is the
 * guard's rule, shared/time-out.ts, in its SQL form (users/time-out.ts).
 */
export const SESSION_TIMED_OUT: SqlRule<GuestValue> = {
  error: 'timed_out',
  refuses: (v) =>
    sql`exists (select 1 from users u where u.id = ${v.signedOut} and ${timeOutRunsSql(sql.ref('u.timeout_until'), v.createdAt)})`,
};

export const ADDRESS_BLOCKED: SqlRule<GuestValue> = {
  error: 'address_blocked',
  refuses: (v) =>
    sql`exists (select 1 from address_blocks b where b.guest_tag = ${v.guestTag} and b.expires_at > ${v.createdAt})`,
};

export const NAME_TAKEN: SqlRule<GuestValue> = {
  error: 'name_reserved',
  refuses: (v) =>
    sql`exists (select 1 from users u where u.login_fold = ${v.nameFold} or u.display_fold = ${v.nameFold})`,
};

export interface GuestPost {
  guestTag: string;
  createdAt: string;
  /** The name the guest gives (an author, a suggester's label), checked after `between`. */
  name: string;
  /** Where the burst of posts starts, null with rate limits off (guests/challenge.ts). */
  burstSince: string | null;
  /**
   * Asked last, when the challenge is due: passes, or throws 428 or 400, or leaves it to the
   * post's own transaction (a refused post must not use the solution up).
   */
  challenge: () => Promise<void>;
}

/**
 * Checks a guest's post in the order the errors win: banned (403), a timed-out user's session
 * (403), blocked (403), then
 * `between` (the post's own 400s), then the name (400). Anyone else passes at once.
 */
export async function checkGuestPost(
  db: Db,
  viewer: Viewer,
  post: GuestPost,
  between: () => void,
): Promise<void> {
  if (viewer.user || viewer.isAdmin) return between();
  if (viewer.bannedUser || viewer.bannedSession) throw fail('banned');
  const name = guestName(post.name);
  const rules = [
    SESSION_TIMED_OUT,
    ADDRESS_BLOCKED,
    ...(name.fold === null ? [] : [NAME_TAKEN]),
    CHALLENGE_DUE,
  ];
  const { guestTag, createdAt, burstSince } = post;
  if (burstSince !== null) await lockBursts(db, [guestTag]);
  const refused = await refusedBy(db, rules, GUEST_VALUES, {
    guestTag,
    createdAt,
    burstSince,
    nameFold: name.fold,
    signedOut: viewer.signedOut,
  });
  if (refused.has('timed_out')) throw fail('timed_out');
  if (refused.has('address_blocked')) throw fail('address_blocked');
  between();
  if (name.reserved || refused.has('name_reserved')) throw fail('name_reserved');
  if (refused.has('challenge_required')) await post.challenge();
}

/**
 * Before the burst rule counts an address's posts (CHALLENGE_DUE) inside a write: on PostgreSQL,
 * a lock per address held until the write commits, so that two transactions (two groups in
 * flight, two instances) never count the same address at once and both let a fourth post
 * through; the second counts once the first has committed. Addresses are locked in one order.
 * SQLite has one writer at a time already.
 */
export async function lockBursts(trx: Db, guestTags: readonly string[]): Promise<void> {
  if (guestTags.length === 0 || isSqlite(trx)) return;
  const tags = [...new Set(guestTags)].sort();
  await sql`select pg_advisory_xact_lock(hashtext('streamer_rating_burst:' || current_schema() || ':' || t))
    from unnest(cast(${tags} as text[])) with ordinality as u(t, n) order by n`.execute(trx);
}

const challenge = choiceSql('guest_challenge', GUEST_CHALLENGES);
const challengeIs = (word: GuestChallenge) => sql`${challenge} = ${sql.lit(word)}`;

/**
 * When a guest must solve the challenge, written once as an SQL condition (db/sql-rules.ts),
 * asked with a post's other rules: `guest_challenge` is `always`, or `burst` (the default) while
 * rate limits are on (`burstSince` is null when they are off) and the address posted 3 comments
 * or suggestions since then.
 */
export const CHALLENGE_DUE: SqlRule<GuestValue> = {
  error: 'challenge_required',
  refuses: (v) => sql`(
    ${challengeIs('always')}
    or (${challengeIs('burst')} and ${v.burstSince} is not null
      and ${latestSince(sql`comments c`, sql`c`, v, sql` and c.user_id is null`)}
        + ${latestSince(sql`streamers s`, sql`s`, v, sql``)}
        >= ${sql.lit(CHALLENGE.burstPosts)}))`,
};

/**
 * How many of an address's rows of a table came since the burst began, counted up to the
 * number that makes the challenge due: the newest first, by the index on (guest_tag,
 * created_at), so that the count stops there. The rule is asked over a group's values, which
 * the planner cannot see: a plain count over one address behind most guest posts was planned as
 * a scan of every comment, for every post (docs/benchmarks.md, stop 55).
 */
function latestSince(
  table: RawBuilder<unknown>,
  alias: RawBuilder<unknown>,
  v: Record<GuestValue, Expression<unknown>>,
  also: RawBuilder<unknown>,
): RawBuilder<unknown> {
  return sql`(select count(*) from (select 1 from ${table}
    where ${alias}.guest_tag = ${v.guestTag} and ${alias}.created_at > ${v.burstSince}${also}
    order by ${alias}.created_at desc limit ${sql.lit(CHALLENGE.burstPosts)}) as latest)`;
}

/** The start of the burst window, or null when rate limits are off (no burst counts). */
export const burstSince = (rateLimit: boolean, now: Date): string | null =>
  rateLimit ? new Date(now.getTime() - CHALLENGE.burstSeconds * 1000).toISOString() : null;
