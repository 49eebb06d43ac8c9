import { createHmac } from 'node:crypto';
import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import { type Expression, type RawBuilder, sql } from 'kysely';
import { isSqlite } from '../db/dialect.ts';
import type { Db } from '../db/schema.ts';
import type { SqlRule } from '../db/sql-rules.ts';
import { DomainError } from '../errors.ts';
import { MINUTE } from '../lib/clock.ts';
import { choiceSql } from '../settings/queries.ts';
import { CHALLENGE, GUEST_CHALLENGES, type GuestChallenge } from '../shared/rules.ts';
import type { GuestValue } from './rules.ts';

/**
 * The guests' challenge (DECISIONS.md "Guests earn trust"): ALTCHA's proof of work, signed with
 * a key derived from the session secret (so every instance accepts every instance's
 * challenges), valid for 10 minutes, each solution used once across instances (a row in
 * `challenge_uses`, inserted in the post's own transaction: a refused post uses nothing).
 */
export const CHALLENGE_TTL_MS = 10 * MINUTE;

/** The signing key: never the session secret itself. */
export const challengeKey = (sessionSecret: string): string =>
  createHmac('sha256', sessionSecret).update('altcha-challenge').digest('hex');

export async function newChallenge(key: string, now: Date) {
  const c = await createChallenge({
    hmacKey: key,
    maxnumber: CHALLENGE.maxnumber,
    expires: new Date(now.getTime() + CHALLENGE_TTL_MS),
  });
  return {
    algorithm: c.algorithm,
    challenge: c.challenge,
    salt: c.salt,
    maxnumber: c.maxnumber ?? CHALLENGE.maxnumber,
    signature: c.signature,
  };
}

interface Solution {
  algorithm: 'SHA-256';
  challenge: string;
  number: number;
  salt: string;
  signature: string;
}

/** The `altcha` field decoded: base64 of `{algorithm, challenge, number, salt, signature}`, else null. */
function decode(altcha: unknown): Solution | null {
  if (typeof altcha !== 'string' || altcha.length > 2000) return null;
  try {
    const p = JSON.parse(Buffer.from(altcha, 'base64').toString('utf8')) as Record<string, unknown>;
    const ok =
      p.algorithm === 'SHA-256' &&
      typeof p.challenge === 'string' &&
      typeof p.salt === 'string' &&
      typeof p.signature === 'string' &&
      typeof p.number === 'number' &&
      Number.isInteger(p.number) &&
      p.number >= 0 &&
      p.number <= CHALLENGE.maxnumber;
    return ok ? (p as unknown as Solution) : null;
  } catch {
    return null;
  }
}

/**
 * A solution's signature, number and expiry checked (no database: the part the bench times per
 * solution); throws 400 `Invalid challenge`.
 */
export async function checkSolution(
  key: string,
  altcha: unknown,
  now: Date,
): Promise<{ solution: Solution; expires: number }> {
  const solution = decode(altcha);
  const expires = Number(solution ? extractParams(solution).expires : NaN);
  // The expiry is read on the app's clock, not the library's (tests move the clock).
  if (!solution || !Number.isInteger(expires) || expires * 1000 < now.getTime()) {
    throw new DomainError('challenge_invalid');
  }
  if (!(await verifySolution(solution, key, false))) throw new DomainError('challenge_invalid');
  return { solution, expires };
}

/**
 * A due challenge: with no solution 428 and a new challenge; a forged, expired, wrong or used
 * solution 400 `Invalid challenge`; a good one is used up in `trx` (the post's transaction).
 */
export async function passChallenge(trx: Db, key: string, altcha: unknown, now: Date): Promise<void> {
  if (altcha === undefined || altcha === null || altcha === '') {
    throw new DomainError('challenge_required', { extra: { challenge: await newChallenge(key, now) } });
  }
  const { solution, expires } = await checkSolution(key, altcha, now);
  await trx.deleteFrom('challenge_uses').where('expires_at', '<', now.toISOString()).execute();
  const used = await trx
    .insertInto('challenge_uses')
    .values({ signature: solution.challenge, expires_at: new Date(expires * 1000).toISOString() })
    .onConflict((oc) => oc.column('signature').doNothing())
    .returning('signature')
    .executeTakeFirst();
  if (!used) throw new DomainError('challenge_invalid');
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
