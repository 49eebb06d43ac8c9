import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { newerMigrations, writtenByNewer } from '../db/migrator.ts';
import { type SqliteDatabase, sqliteDriver } from '../db/sqlite-driver.ts';
import { fsyncPath } from './files.ts';

/** A restore refused before anything changed. */
export class RestoreRefused extends Error {}

export interface Restored {
  /** Where the replaced database now lies; null when there was none. */
  aside: string | null;
  /** The newest migration in the copy (the service applies the later ones at start). */
  migration: string;
  comments: number;
}

const sizeOf = async (file: string) => (await stat(file).catch(() => null))?.size ?? 0;

/**
 * What a copy must be before it replaces a database: a SQLite file that passes
 * `integrity_check` and carries this service's migrations table, at a version this build
 * knows (the service migrates an older one at start; a newer one would meet code that does
 * not know its tables).
 */
function checkCopy(file: string, source: string): Omit<Restored, 'aside'> {
  let db: SqliteDatabase;
  try {
    db = new (sqliteDriver())(file, { fileMustExist: true });
  } catch (err) {
    throw new RestoreRefused(`${source} cannot be opened: ${(err as Error).message}`);
  }
  try {
    let check: string;
    try {
      check = (db.pragma('integrity_check') as { integrity_check: string }[])
        .map((r) => r.integrity_check)
        .join('; ');
    } catch (err) {
      throw new RestoreRefused(`${source} is not a SQLite database (${(err as Error).message})`);
    }
    if (check !== 'ok')
      throw new RestoreRefused(`${source} fails PRAGMA integrity_check: ${check.slice(0, 300)}`);
    let names: string[];
    try {
      names = (db.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map(
        (r) => r.name,
      );
    } catch {
      throw new RestoreRefused(`${source} is not a streamer-rating database (it has no migrations table)`);
    }
    const unknown = newerMigrations(names);
    if (unknown.length > 0) throw new RestoreRefused(`${source} ${writtenByNewer(unknown)}: upgrade first`);
    const migration = names.at(-1);
    if (migration === undefined)
      throw new RestoreRefused(`${source} is not a streamer-rating database (no migration ran)`);
    const comments = (db.prepare('select count(*) as n from comments').get() as { n: number }).n;
    return { migration, comments };
  } finally {
    db.close();
  }
}

/**
 * Whether a process holds the database open. A service keeps its connection open, and with
 * it a shared lock: an exclusive lock then cannot be had. Without a service, the exclusive
 * connection also folds the WAL into the file (checkpoint) and removes it on close, so that
 * the file set aside is whole on its own.
 */
function assertNotInUse(target: string): void {
  if (!existsSync(target)) return;
  const db = new (sqliteDriver())(target, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    try {
      db.exec('begin exclusive');
      db.exec('commit');
    } catch (err) {
      if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
        throw new RestoreRefused(
          `${target} is in use by a running service: stop every instance first (systemctl stop 'streamer-rating@*'), then restore`,
        );
      }
      throw err;
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/**
 * Replaces the SQLite database `target` with the copy `source`, only after the copy passed
 * every check: the copy is first copied beside the target (so the file checked is the file
 * installed), checked, and renamed into place; the replaced database is renamed aside, never
 * deleted. A refusal leaves everything as it was.
 */
export async function restoreSqlite(target: string, source: string, now: Date): Promise<Restored> {
  if (!existsSync(source)) throw new RestoreRefused(`${source} does not exist`);
  if (resolve(source) === resolve(target)) throw new RestoreRefused(`${source} is the database itself`);
  if ((await sizeOf(`${source}-wal`)) > 0) {
    throw new RestoreRefused(
      `${source} has a -wal file beside it: it is a live database, or a copy of one taken mid-write; ` +
        'make a copy with `streamer-rating backup <file>` and restore that',
    );
  }
  // A new directory is the service user's alone, as db/connect.ts makes the data directory.
  await mkdir(dirname(resolve(target)), { recursive: true, mode: 0o700 });
  const incoming = `${target}.restoring-${process.pid}`;
  try {
    await copyFile(source, incoming);
    fsyncPath(incoming);
    const found = checkCopy(incoming, source);
    assertNotInUse(target);
    let aside: string | null = null;
    if (existsSync(target)) {
      aside = `${target}.before-restore-${now.toISOString().replace(/:/g, '-')}`;
      await rename(target, aside);
      // After a clean close there are none; a leftover WAL must never meet the restored file.
      for (const suffix of ['-wal', '-shm']) {
        if (existsSync(target + suffix)) await rename(target + suffix, aside + suffix);
      }
    }
    await rename(incoming, target);
    fsyncPath(dirname(resolve(target)));
    return { aside, ...found };
  } finally {
    for (const suffix of ['', '-wal', '-shm']) await rm(incoming + suffix, { force: true });
  }
}
