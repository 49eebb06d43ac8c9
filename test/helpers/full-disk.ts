import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';

/** Inserts rows made by `row(i)` until the database has no room left for one (SQLITE_FULL). */
function fill(sqlite: Database, insert: string, row: (i: number) => unknown[]): void {
  const statement = sqlite.prepare(insert);
  for (let i = 0; i < 100_000; i++) {
    try {
      statement.run(...row(i));
    } catch {
      return;
    }
  }
}

/**
 * Fills a SQLite database's sessions until its pages run out (under a `max_page_count`, a real
 * SQLITE_FULL): a sign-in's session then finds no room either.
 */
export function fillSessions(sqlite: Database): void {
  fill(sqlite, 'insert into sessions (id, data, created_at, seen_at) values (?, ?, ?, ?)', (i) => [
    `fill-${i}`,
    '{}',
    '2026-01-01',
    '2026-01-01',
  ]);
}

/**
 * Runs `run` on a full disk: the database may grow no further, and the sessions and the rate
 * limits' counts (what a sign-in's start writes) have taken the room left in their pages, so
 * that a new row of either fails with SQLITE_FULL. The room comes back after it.
 */
export async function fullDisk(sqlite: Database, run: () => Promise<void>): Promise<void> {
  sqlite.pragma(`max_page_count = ${Number(sqlite.pragma('page_count', { simple: true }))}`);
  fillSessions(sqlite);
  fill(sqlite, 'insert into rate_limits (key, hits, reset_at) values (?, 1, ?)', (i) => [
    `fill-${i}`,
    '2126-01-01T00:00:00.000Z',
  ]);
  try {
    await run();
  } finally {
    sqlite.pragma('max_page_count = 1073741823');
    sqlite.prepare("delete from sessions where id like 'fill-%'").run();
    sqlite.prepare("delete from rate_limits where key like 'fill-%'").run();
  }
}

/**
 * A real file system of `kib` KiB (tmpfs) mounted on a new folder, for a write that really
 * meets ENOSPC; null where this process may not mount one (not root, or no CAP_SYS_ADMIN in a
 * container), and the test that needs it says so and skips. `unmount` lets it go.
 */
export function smallDisk(kib: number): { dir: string; unmount: () => void } | null {
  const dir = mkdtempSync(join(tmpdir(), 'small-disk-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k,mode=0700`, 'tmpfs', dir]);
  if (mounted.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  return {
    dir,
    unmount: () => {
      spawnSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
