import { describe, expect, it } from 'vitest';
import { dbKind } from '../helpers/database.ts';
import { fuzz } from '../soak/fuzz.ts';
import { formatVerdict } from '../soak/lib/verdict.ts';

// The short version of `npm run soak`'s fuzzing (SECURITY.md 20-21): every fixed probe of
// issue 8 plus a few hundred random requests.
describe(`fuzzed requests on ${dbKind}`, () => {
  it('no 5xx; every answer has the security headers; errors are {"error": ...}; debug stays closed; prototype keys refused', async () => {
    const verdict = await fuzz(dbKind, { requests: 300, seed: 8, concurrency: 4 });
    expect(formatVerdict(verdict)).toMatch(/: PASS \(/);
  }, 180_000);
});
