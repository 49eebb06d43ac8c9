import type pg from 'pg';
import { ContentVersion } from './changes.ts';
import type { Db } from './schema.ts';
import type { SqliteDatabase } from './sqlite-driver.ts';
import { GroupCommit } from './transaction.ts';

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
  /** SQLite's group commit; null on PostgreSQL, where each write is its own transaction. */
  readonly groupCommit: GroupCommit | null;
}

export function dbContext(
  db: Db,
  kind: 'sqlite' | 'postgres',
  handle: { sqlite?: SqliteDatabase; pool?: pg.Pool } = {},
): DbContext {
  return {
    db,
    kind,
    ...(handle.sqlite ? { sqlite: handle.sqlite } : {}),
    ...(handle.pool ? { pool: handle.pool } : {}),
    changes: new ContentVersion(),
    groupCommit: kind === 'sqlite' ? new GroupCommit(db) : null,
  };
}
