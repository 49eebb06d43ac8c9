import { describe, expect, it } from 'vitest';
import { dbKind } from '../helpers/database.ts';
import { concurrentStart } from '../soak/concurrent-start.ts';
import { instances } from '../soak/instances.ts';
import { formatVerdict } from '../soak/lib/verdict.ts';

// Short versions of `npm run soak`'s multi-instance scenarios (SECURITY.md 27).
describe(`several instances on one ${dbKind} database`, () => {
  it('three instances writing at once: served or shed with Retry-After, no SQLITE_BUSY, nothing acknowledged lost, one owner per group', async () => {
    const verdict = await instances(dbKind, { instances: 3, seconds: 3, clients: 2 });
    expect(formatVerdict(verdict)).toMatch(/: PASS \(/);
  }, 180_000);

  it('four instances started at the same moment on a fresh database all come up', async () => {
    const verdict = await concurrentStart(dbKind, { rounds: 1, instances: 4 });
    expect(formatVerdict(verdict)).toMatch(/: PASS \(/);
  }, 180_000);
});
