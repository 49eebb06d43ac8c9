import { statSync } from 'node:fs';
import type { SqliteDatabase } from './sqlite-driver.ts';
import { BUSY_TIMEOUT } from './connect.ts';

/** Past this size the WAL is checkpointed and truncated as soon as readers allow it. */
export const WAL_LIMIT_BYTES = 4 * 2 ** 20;
const EVERY_MS = 100;
/**
 * How long a checkpoint may wait for readers: it runs on the event loop, so briefly while
 * the file is still small, longer once readers have kept it from starting over for a while,
 * and up to a second well before the 16 MiB bound (a busy machine's readers are slow to let
 * go, and a fast writer adds about 10 MiB a second).
 */
const waitFor = (walBytes: number) =>
  walBytes > 2 * WAL_LIMIT_BYTES ? 1000 : walBytes > 1.5 * WAL_LIMIT_BYTES ? 250 : 50;

/**
 * Keeps the SQLite WAL file bounded (SECURITY.md 28). SQLite's automatic checkpoints copy
 * pages back but never shrink the file, and readers that always overlap (a second instance,
 * reports, backups) can keep it from ever starting over. Ten times a second, when the file has
 * grown past 4 MiB (SQLite's own auto-checkpoint size), a TRUNCATE checkpoint is tried with
 * a short busy wait (50 ms, 250 ms past 6 MiB, 1 s past 8 MiB); if readers are in the way it
 * simply tries again next time. Under a steady write load with overlapping outside readers
 * this keeps the file under 16 MiB (test/faults/sqlite-files.test.ts); an idle service only
 * pays for one stat a tick.
 */
export function keepWalBounded(sqlite: SqliteDatabase, warn: (err: unknown) => void) {
  const file = sqlite.name;
  const timer = setInterval(() => {
    try {
      const size = statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0;
      // Inside one of our own transactions a checkpoint cannot finish: next tick.
      if (size <= WAL_LIMIT_BYTES || sqlite.inTransaction) return;
      sqlite.pragma(`busy_timeout = ${waitFor(size)}`);
      try {
        sqlite.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        sqlite.pragma(BUSY_TIMEOUT);
      }
    } catch (err) {
      warn(err);
    }
  }, EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
