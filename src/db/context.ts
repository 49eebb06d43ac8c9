import type pg from 'pg';
import { systemClock } from '../lib/clock.ts';
import { ContentVersion } from './changes.ts';
import { DbFailures } from './failures.ts';
import type { Db } from './schema.ts';
import type { SqliteDatabase } from './sqlite-driver.ts';
import { GroupCommit } from './group-commit.ts';

/**
 * An open database and what this process keeps about it, in one object made when the database
 * is opened (db/connect.ts) and handed to whatever writes through it or caches what it holds:
 * the content version that cached answers are labelled with (changes.ts) and, on SQLite, the
 * group commit that every write joins (transaction.ts). Two apps in one process on the same
 * database share it, as they must: one connection takes one group at a time.
 */
export interface DbContext {
  readonly db: Db;
  readonly kind: 'sqlite' | 'postgres';
  /** The SQLite handle, for pragmas, checkpoints, online backups and other processes' commits. */
  readonly sqlite?: SqliteDatabase;
  /** The PostgreSQL pool, for its gauges (metrics/collector.ts). */
  readonly pool?: pg.Pool;
  readonly changes: ContentVersion;
  /**
   * The group commit: on SQLite every write joins it; on PostgreSQL the writes asked `grouped`
   * (comment posts), two groups side by side (db/transaction.ts).
   */
  readonly groupCommit: GroupCommit;
  /** The failures this process saw (failures.ts): a full disk, an unreachable database. */
  readonly failures: DbFailures;
}

/**
 * PostgreSQL's groups in flight: while one group's commit waits for its WAL flush, the next is
 * executed on a second connection (docs/decisions.md "Comment posting on PostgreSQL").
 */
export const GROUPS_IN_FLIGHT = 2;

export function dbContext(
  db: Db,
  kind: 'sqlite' | 'postgres',
  handle: { sqlite?: SqliteDatabase; pool?: pg.Pool } = {},
): DbContext {
  const changes = new ContentVersion();
  return {
    db,
    kind,
    ...(handle.sqlite ? { sqlite: handle.sqlite } : {}),
    ...(handle.pool ? { pool: handle.pool } : {}),
    changes,
    failures: new DbFailures(),
    groupCommit: new GroupCommit(
      db,
      changes,
      systemClock,
      kind === 'sqlite',
      kind === 'sqlite' ? 1 : GROUPS_IN_FLIGHT,
    ),
  };
}
