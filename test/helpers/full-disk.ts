import type { Database } from 'better-sqlite3';

/**
 * Fills a SQLite database's sessions until its pages run out (under a `max_page_count`, a real
 * SQLITE_FULL): a sign-in's session then finds no room either.
 */
export function fillSessions(sqlite: Database): void {
  const fill = sqlite.prepare('insert into sessions (id, data, created_at, seen_at) values (?, ?, ?, ?)');
  for (let i = 0; i < 100_000; i++) {
    try {
      fill.run(`fill-${i}`, '{}', '2026-01-01', '2026-01-01');
    } catch {
      return;
    }
  }
}
