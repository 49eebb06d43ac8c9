import { createHmac } from 'node:crypto';
import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import type { Db } from '../db/schema.ts';
import { DomainError } from '../errors.ts';
import { MINUTE } from '../lib/clock.ts';
import { CHALLENGE } from '../shared/rules.ts';

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
