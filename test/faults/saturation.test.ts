import { describe, expect, it } from 'vitest';
import { dbKind } from '../helpers/database.ts';
import { formatVerdict } from '../soak/lib/verdict.ts';
import { MEMORY_BUDGET_MIB, saturation } from '../soak/saturation.ts';

// The short version of `npm run soak`'s saturation scenario (SECURITY.md 31). No latency
// bound here: the tests share the machine; the full soak holds the 2-second one.
describe(`saturation on ${dbKind}`, () => {
  it('200 connections on the public list and on comment posting: only 2xx, 429 or 503 with Retry-After, memory within budget', async () => {
    const verdict = await saturation(dbKind, {
      connections: 200,
      seconds: 2,
      maxLatencyMs: null,
      memoryMiB: MEMORY_BUDGET_MIB,
    });
    expect(formatVerdict(verdict)).toMatch(/: PASS \(/);
  }, 180_000);
});
