/** The challenge a 428 `challenge_required` answer carries (DECISIONS.md "Guests earn trust"). */
export interface Challenge {
  algorithm: string;
  challenge: string;
  salt: string;
  maxnumber: number;
  signature: string;
}

/** Numbers tried per step: small enough that the page stays responsive between steps. */
const STEP = 5_000;

/**
 * Solves a challenge on the main thread in small steps (altcha-lib's solver over a range each
 * time), reporting progress from 0 to 1, and answers the `altcha` field to send: base64 of
 * `{algorithm, challenge, number, salt, signature}`. Null when no number solves it. The solver
 * is loaded when a challenge first comes: most visitors never meet one.
 */
export async function solve(c: Challenge, progress: (done: number) => void): Promise<string | null> {
  const { solveChallenge } = await import('altcha-lib/v1');
  for (let start = 0; start <= c.maxnumber; start += STEP) {
    const max = Math.min(start + STEP - 1, c.maxnumber);
    const found = await solveChallenge(c.challenge, c.salt, c.algorithm, max, start).promise;
    progress(Math.min(1, max / c.maxnumber));
    if (found) {
      const { maxnumber: _, ...rest } = c;
      return btoa(JSON.stringify({ ...rest, number: found.number }));
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return null;
}
