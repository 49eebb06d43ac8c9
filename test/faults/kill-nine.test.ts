import { describe, expect, it } from 'vitest';
import { dbKind } from '../helpers/database.ts';
import { killNine } from '../soak/kill-nine.ts';
import { formatVerdict } from '../soak/lib/verdict.ts';

// The short version of `npm run soak`'s kill-9 scenario (SECURITY.md 26); SQLite only.
describe.runIf(dbKind === 'sqlite')('crash safety', () => {
  it('a writing server killed with SIGKILL: the file passes integrity_check and every acknowledged write is there', async () => {
    const verdict = await killNine({ kills: 3, commenters: 2, raters: 1, upMs: [300, 800] });
    expect(formatVerdict(verdict)).toMatch(/^VERDICT kill-9: PASS/);
  }, 180_000);
});
