/**
 * Issue 29: the CPU the service spends checking one challenge solution (its signature, number
 * and expiry: guests/challenge.ts `checkSolution`, the part of a challenged post that the
 * post's one INSERT does not already cost), measured in this process with process.cpuUsage
 * over many solutions signed with the service's key.
 */
import { createChallenge } from 'altcha-lib/v1';
import { challengeKey, checkSolution } from '../src/guests/challenge.ts';
import { CHALLENGE } from '../src/shared/rules.ts';
import { DASH, type Row } from './report.ts';

const SOLUTIONS = 2000;

export async function challengeVerifyRow(): Promise<Row> {
  const key = challengeKey('a benchmark session secret of enough length');
  const now = new Date();
  const expires = new Date(now.getTime() + 10 * 60_000);
  const encoded: string[] = [];
  for (let i = 0; i < SOLUTIONS; i++) {
    // The number is chosen here, so no solving is needed to have a valid solution.
    const number = Math.floor(Math.random() * CHALLENGE.maxnumber);
    const c = await createChallenge({ hmacKey: key, maxnumber: CHALLENGE.maxnumber, number, expires });
    const solution = {
      algorithm: c.algorithm,
      challenge: c.challenge,
      number,
      salt: c.salt,
      signature: c.signature,
    };
    encoded.push(Buffer.from(JSON.stringify(solution)).toString('base64'));
  }
  for (const altcha of encoded.slice(0, 200)) await checkSolution(key, altcha, now); // warm-up
  const started = process.cpuUsage();
  for (const altcha of encoded) await checkSolution(key, altcha, now);
  const used = process.cpuUsage(started);
  const perSolutionMs = (used.user + used.system) / 1000 / SOLUTIONS;
  return {
    path: 'challenge solution verified (CPU, in process)',
    service: `${perSolutionMs.toFixed(3)} ms`,
    serviceP99: DASH,
    ceiling: DASH,
    ceilingP99: DASH,
    ratio: DASH,
    target: '< 1 ms CPU',
    ok: perSolutionMs < 1,
    enforced: true,
    notes: [],
  };
}
