import { describe, expect, it } from 'vitest';
import { dbKind } from '../helpers/database.ts';
import { formatVerdict } from '../soak/lib/verdict.ts';
import { onlineBackup } from '../soak/online-backup.ts';
import { walBounded } from '../soak/wal-bounded.ts';

// Short versions of `npm run soak`'s SQLite file scenarios (SECURITY.md 28 and 29).
describe.runIf(dbKind === 'sqlite')('the SQLite file under load', () => {
  it('the WAL stays bounded while writers and readers run', async () => {
    const verdict = await walBounded({ seconds: 5, limitMiB: 16, writers: 2, readers: 2 });
    expect(formatVerdict(verdict)).toMatch(/^VERDICT wal-bounded: PASS/);
  }, 180_000);

  it('an online backup under write load opens alone, passes integrity_check and holds what was acknowledged', async () => {
    const verdict = await onlineBackup({ backups: 2, gapMs: 500, writers: 2, seedMs: 1000 });
    expect(formatVerdict(verdict)).toMatch(/^VERDICT online-backup: PASS/);
  }, 180_000);
});
