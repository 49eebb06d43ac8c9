import { describe, expect, it } from 'vitest';
import { dbKind } from '../helpers/database.ts';
import { formatVerdict } from '../soak/lib/verdict.ts';
import { pgOutage } from '../soak/pg-outage.ts';

// The short version of `npm run soak`'s PostgreSQL fault scenario (SECURITY.md 30). It never
// stops the shared server: only this test's own backends are terminated, and the outage is a
// cut relay in front of PostgreSQL.
describe.runIf(dbKind === 'postgres')('PostgreSQL faults under load', () => {
  it('start while unreachable, terminated backends, a short outage: alive, clean 503s, recovery, nothing lost', async () => {
    const verdict = await pgOutage({
      unreachableMs: 2000,
      terminations: 3,
      everyMs: 300,
      outageMs: 2000,
      restartServer: false,
      hangMs: 30_000,
      recoveryMs: 30_000,
    });
    expect(formatVerdict(verdict)).toMatch(/^VERDICT pg-outage: PASS/);
  }, 180_000);
});
