import { randomBytes } from 'node:crypto';
import { readFileSync, readlinkSync, rmSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';

/**
 * The temporary files a copy is written to before it takes its name (files.ts writeWhole): who
 * wrote each, so that a dead writer's is known at once, and their removal when the process
 * writing them is stopped.
 */

/**
 * Where a process number names one process: this host, and on Linux its process-number
 * namespace (a container on the same host numbers its processes apart). Without dots or `@`, so
 * that a temporary file's name is read back from its end.
 */
export const THIS_PLACE = (() => {
  let namespace = '';
  try {
    namespace = /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1] ?? '';
  } catch {
    // not Linux: the host's name alone
  }
  return encodeURIComponent(hostname()).replace(/\./g, '%2E') + (namespace ? `~${namespace}` : '');
})();

/**
 * Field `n` (from 3) of process `pid`'s /proc/<pid>/stat (Linux), or undefined where that is
 * not known (not Linux, the process gone, /proc hidden).
 */
function statField(pid: number, n: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2, the command's name, may hold spaces and parentheses: field 3 follows its last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[n - 3];
  } catch {
    return undefined;
  }
}

/**
 * When process `pid` started, in clock ticks since the boot (field 22 of /proc/<pid>/stat), or
 * undefined where that is not known. With its number it names one process: a number is given
 * again once its process ended, with another start.
 */
export function startOf(pid: number): string | undefined {
  const field = statField(pid, 22);
  return field !== undefined && /^\d+$/.test(field) ? field : undefined;
}

/** Who writes a temporary file: a process (its number, and when it started) of a place. */
export interface Writer {
  pid: number;
  started: string | undefined;
  place: string;
}

/** This process, as the temporary files it writes name it. */
export const THIS_WRITER: Writer = { pid: process.pid, started: startOf(process.pid), place: THIS_PLACE };

/**
 * The temporary file a copy of `file` is written to, beside it: hidden, and naming its writer
 * (`.<file>.<random>.<pid>-<start>@<place>.partial`; `<pid>@<place>` where the start is not
 * known), so that the next scheduled backup knows a dead one's at once (pruneTemporaries).
 */
export function temporaryFor(file: string, { pid, started, place } = THIS_WRITER): string {
  const writer = started === undefined ? `${pid}@${place}` : `${pid}-${started}@${place}`;
  return join(dirname(file), `.${basename(file)}.${randomBytes(4).toString('hex')}.${writer}.partial`);
}

const WRITER = /\.(\d+)(?:-(\d+))?@([^.@]+)\.partial$/;

/**
 * Whether a temporary file's writer is known to be gone: a process of this place (THIS_PLACE)
 * that no longer runs (ended, or a zombie: ended, not yet reaped by its parent, state `Z` in
 * field 3 of /proc/<pid>/stat, which still answers a signal 0 and keeps its start; it never
 * writes again), or whose number a process started since has taken. A writer elsewhere
 * (another host sharing the directory, another container), or a name without one (written
 * before names carried it), is not known to be; nor is a process of the number where the name
 * has no start (`<pid>@<place>`, the names of before) or its start cannot be read.
 */
export function writerGone(name: string): boolean {
  const [, pid, started, place] = WRITER.exec(name) ?? [];
  if (place !== THIS_PLACE || !(Number(pid) > 0)) return false;
  try {
    process.kill(Number(pid), 0);
  } catch (err) {
    // EPERM: one runs, as another user (its start is still read below).
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return true;
  }
  if (statField(Number(pid), 3) === 'Z') return true;
  const running = started === undefined ? undefined : startOf(Number(pid));
  return running !== undefined && running !== started;
}

/**
 * A database's files as SQLite names them, by their ends (`''`, the database itself, last: a
 * name's end is the first found). A copy being written has its `-journal` beside it (SQLite's
 * backup writes the copy in a transaction of its own), which a copy killed midway leaves;
 * `-wal` and `-shm` are not made under a temporary name, and go with it all the same.
 */
export const SQLITE_SUFFIXES = ['-journal', '-wal', '-shm', ''];

const HOUR = 3_600_000;

/** When a file last changed; one gone meanwhile (its copy put in place) is not old. */
const changedAt = (file: string) =>
  stat(file)
    .then((s) => s.mtimeMs)
    .catch(() => Infinity);

/**
 * Deletes the temporary files in `dir` (those whose names `ours` claims) of copies that never
 * finished, with SQLite's files beside each: at once when their writer is known to be gone
 * (writerGone: a process of this host that died), else once none of them has changed for an
 * hour (a backup still being written, possibly by another instance or host, is younger).
 */
export async function pruneTemporaries(
  dir: string,
  ours: (name: string) => boolean,
  now: Date,
): Promise<void> {
  const temporaries = new Map<string, string[]>();
  for (const name of await readdir(dir)) {
    const suffix = SQLITE_SUFFIXES.find((end) => name.endsWith(end)) ?? '';
    const temporary = name.slice(0, name.length - suffix.length);
    if (!ours(temporary) || !temporary.endsWith('.partial')) continue;
    temporaries.set(temporary, [...(temporaries.get(temporary) ?? []), join(dir, name)]);
  }
  for (const [temporary, files] of temporaries) {
    const changed = Math.max(...(await Promise.all(files.map(changedAt))));
    if (writerGone(temporary) || now.getTime() - changed > HOUR) {
      for (const file of files) await rm(file, { force: true });
    }
  }
}

/** The signals that stop a command: Ctrl-C, a stop, a closed terminal. */
const STOPS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const writing = new Set<string>();
let taken: NodeJS.Signals[] = [];

/**
 * Removes the files being written, and SQLite's beside them (a copy's -journal), then lets the
 * signal end the process as it would have.
 */
function stopped(signal: NodeJS.Signals): void {
  for (const file of writing) for (const suffix of SQLITE_SUFFIXES) rmSync(file + suffix, { force: true });
  writing.clear();
  release();
  process.kill(process.pid, signal);
}

function release(): void {
  for (const signal of taken) process.removeListener(signal, stopped);
  taken = [];
}

/**
 * Holds `partial` while it is written; the returned function lets it go. A process that leaves
 * a stop to Node.js's default (the command-line tool: Ctrl-C in a long `backup <file>`) ended at
 * once and left the file beside the copy asked for, where no scheduled backup prunes: such a
 * signal now removes it first, then ends the process as before. A process with a handler of
 * its own (the service, which stops its backups and waits for them) is left to it.
 */
export function heldUntilWritten(partial: string): () => void {
  if (writing.size === 0) {
    taken = STOPS.filter((signal) => process.listenerCount(signal) === 0);
    for (const signal of taken) process.on(signal, stopped);
  }
  writing.add(partial);
  return () => {
    writing.delete(partial);
    if (writing.size === 0) release();
  };
}
