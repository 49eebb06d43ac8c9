import { closeSync, fsyncSync, openSync, statSync } from 'node:fs';
import { chmod, link, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { SqliteDatabase } from '../db/sqlite-driver.ts';
import { heldUntilWritten, pruneTemporaries, SQLITE_SUFFIXES, temporaryFor } from './temporary.ts';

/** Flushes a file, or a directory's entries (a rename), to the disk. */
export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Backup copies are the service user's alone (issue 30, item 13: they were 0644). */
export const BACKUP_MODE = 0o600;

/** Pages copied per step of an online backup at first (better-sqlite3's own default). */
const FIRST_STEP_PAGES = 100;
const ALL_PAGES = 0x7fffffff;

/**
 * The step size of an online backup: SQLite follows the copy when the backup's own connection
 * writes, but starts it over when another connection (the service, while the command-line
 * tool copies; another instance) writes between two steps. Under a steady stream of writes a
 * 100-page step never finished a 60 MB file (it started over for two minutes); so each time
 * the copy starts over, the steps grow fourfold, until one step copies the whole file in one
 * read transaction (which writers in WAL mode do not wait for).
 */
export function backupSteps(): (progress: { remainingPages: number }) => number {
  let pages = FIRST_STEP_PAGES;
  let remaining = Infinity;
  return ({ remainingPages }) => {
    if (remainingPages > remaining) pages = Math.min(pages * 4, ALL_PAGES);
    remaining = remainingPages;
    return pages;
  };
}

/**
 * SQLite's online backup of a live database to `file`, atomically (writeWhole). Safe while
 * the service writes: SQLite follows the copy as pages change, or starts it over with bigger
 * steps (backupSteps). Never over the database's own files; over another file only when
 * `replace` (the scheduled backups' names are new each time).
 */
export async function writeBackup(
  sqlite: SqliteDatabase,
  file: string,
  /** Whether a file already there is replaced (the command-line tool's `--force`). */
  replace = true,
): Promise<void> {
  refuseOwnFiles(sqlite.name, file);
  await writeWhole(file, (partial) => sqlite.backup(partial, { progress: backupSteps() }), replace);
}

/**
 * Writes `file` whole or not at all: `write` fills a temporary file in the same directory,
 * which is flushed, then renamed, so that `file` is either what it was or complete, never half
 * of one (a crash, a full disk, two at the same moment): a backup or an export made over
 * yesterday's under the same name never leaves a cut file in its place. The file is the
 * service user's alone (BACKUP_MODE) from its first byte, whatever the umask (SQLite and
 * writeFile keep the mode of a file they find). A failure removes the temporary file and is
 * said by the file asked for, not the temporary one; so does a Ctrl-C or a stop of the
 * command-line tool meanwhile (temporary.ts heldUntilWritten).
 *
 * Unless `replace`, a file already there is kept and the write refused (BackupRefused): the
 * copy is linked in under its name, which fails if the name is taken, in the same step as it
 * looks. A look before the copy let two backups started together to one new name both pass
 * it, and the second replaced the first without a word.
 */
export async function writeWhole(
  file: string,
  write: (partial: string) => Promise<unknown>,
  replace = true,
): Promise<void> {
  const partial = temporaryFor(file);
  const letGo = heldUntilWritten(partial);
  try {
    closeSync(openSync(partial, 'wx', BACKUP_MODE));
    await chmod(partial, BACKUP_MODE);
    await write(partial);
    fsyncPath(partial);
    await (replace ? rename(partial, file) : linkNew(partial, file));
    fsyncPath(dirname(file));
  } catch (err) {
    if (err instanceof BackupRefused) throw err;
    throw new Error(`cannot write ${file}: ${whyNotWritten(err)}; nothing was replaced`, { cause: err });
  } finally {
    // Gone after a rename; after a link (or any failure) the temporary name is removed here,
    // with the -journal SQLite leaves beside a copy that failed (a full disk, a size limit).
    for (const suffix of SQLITE_SUFFIXES) await rm(partial + suffix, { force: true });
    letGo();
  }
}

/** The codes of a file system that has no hard links (FAT, some network shares). */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/**
 * Gives `partial` the name `file` unless that name is taken (a backup by hand without --force).
 * Where the file system has no hard links, the name is taken with an empty file made only if it
 * is free (O_EXCL: still the step that looks), and the finished copy renamed over it. A copy
 * copied in under the name left a cut file with a good name after a crash in the middle; now a
 * crash leaves the temporary file (pruned by the next scheduled backup, BackupSet) or, between
 * the two steps, an empty file, never part of a copy.
 */
export async function linkNew(partial: string, file: string, linkFile = link): Promise<void> {
  try {
    await linkFile(partial, file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (NO_LINKS.has(code)) {
      await renameNew(partial, file);
      return;
    }
    if (code !== 'EEXIST') throw err;
    throw refusedAsTaken(file);
  }
}

async function renameNew(partial: string, file: string): Promise<void> {
  try {
    closeSync(openSync(file, 'wx', BACKUP_MODE));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw refusedAsTaken(file);
    throw err;
  }
  try {
    await rename(partial, file);
  } catch (err) {
    // The name was taken for this copy alone: it is given back.
    await rm(file, { force: true });
    throw err;
  }
}

const refusedAsTaken = (file: string) =>
  new BackupRefused(`${file} exists; name a new file, or give --force to replace it`);

/**
 * Why a file could not be written, in an operator's words (the system's code kept in the cause).
 * A full disk (ENOSPC) under SQLite's backup is SQLITE_FULL; but its copy past a file-size limit
 * or a quota (EFBIG, EDQUOT) stays SQLite's `disk I/O error`: SQLite says those writes
 * SQLITE_IOERR_WRITE, as it says a failing disk's (EIO), and better-sqlite3's backup hands on
 * only the primary code, SQLITE_IOERR, never the errno (kept on the copy's own connection). So
 * it is not told from a real I/O error, and not called a lack of room.
 */
function whyNotWritten(err: unknown): string {
  const { code, message } = err as { code?: string; message?: string };
  if (code === 'ENOSPC' || code === 'EFBIG' || code === 'EDQUOT' || code === 'SQLITE_FULL')
    return 'no room left on its disk (or over its size limit)';
  if (code === 'ENOENT') return 'its directory does not exist';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'not allowed to write there';
  return message ?? String(err);
}

/** A backup the command-line tool refuses, with the reason. */
export class BackupRefused extends Error {}

/** Whether two names are one file: the same path, or the same inode (a link, another spelling). */
function sameFile(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  const [x, y] = [statSync(a, { throwIfNoEntry: false }), statSync(b, { throwIfNoEntry: false })];
  return x !== undefined && y !== undefined && x.dev === y.dev && x.ino === y.ino;
}

/**
 * A copy written over the live database (`backup data/streamers.db`, a slip) would be renamed
 * over the file the service has open, beside a write-ahead log that belongs to the old one:
 * refused, as is a copy over that log or its index.
 */
function refuseOwnFiles(database: string, file: string): void {
  if (database === '' || database === ':memory:') return;
  const own = SQLITE_SUFFIXES.find((suffix) => sameFile(database + suffix, file));
  if (own !== undefined) {
    throw new BackupRefused(
      `${file} is the database${own === '' ? '' : `'s ${own} file`} itself; name a new file`,
    );
  }
}

/** The copies of one database in a backup directory: `<name>-<UTC time>.db`. */
export class BackupSet {
  readonly #prefix: string;
  readonly #pattern: RegExp;

  constructor(
    readonly dir: string,
    databaseFile: string,
  ) {
    this.#prefix = basename(databaseFile, extname(databaseFile));
    const escaped = this.#prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    this.#pattern = new RegExp(`^${escaped}-(\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d\\.\\d{3}Z)\\.db$`);
  }

  /** The name of a copy made at `at`: sortable, readable, no characters a shell or Windows minds. */
  fileFor(at: Date): string {
    return join(this.dir, `${this.#prefix}-${at.toISOString().replace(/:/g, '-')}.db`);
  }

  /** The copies, oldest first, with the time each was made. */
  async list(): Promise<{ file: string; at: Date }[]> {
    const names = await readdir(this.dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [] as string[];
      throw err;
    });
    return names
      .map((name) => ({ name, stamp: this.#pattern.exec(name)?.[1] }))
      .filter((e): e is { name: string; stamp: string } => e.stamp !== undefined)
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map(({ name, stamp }) => ({
        file: join(this.dir, name),
        at: new Date(stamp.replace(/T(\d\d)-(\d\d)-(\d\d)/, 'T$1:$2:$3')),
      }));
  }

  /**
   * Deletes all but the newest `keep` copies, and the temporary files of copies that never
   * finished (pruneTemporaries: at once when their writer is known to be gone, else after an hour).
   */
  async prune(keep: number, now: Date): Promise<string[]> {
    const copies = await this.list();
    const old = copies.slice(0, Math.max(0, copies.length - keep)).map((c) => c.file);
    for (const file of old) await rm(file, { force: true });
    await pruneTemporaries(this.dir, (name) => name.startsWith(`.${this.#prefix}-`), now);
    return old;
  }
}
