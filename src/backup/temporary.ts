import { randomBytes } from 'node:crypto';
import { readlinkSync, rmSync } from 'node:fs';
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
 * The temporary file a copy of `file` is written to, beside it: hidden, and naming its writer
 * (`.<file>.<random>.<pid>@<place>.partial`), so that the next scheduled backup knows a dead
 * one's at once (BackupSet.prune).
 */
export const temporaryFor = (file: string, pid = process.pid, place = THIS_PLACE): string =>
  join(dirname(file), `.${basename(file)}.${randomBytes(4).toString('hex')}.${pid}@${place}.partial`);

const WRITER = /\.(\d+)@([^.@]+)\.partial$/;

/**
 * Whether a temporary file's writer is known to be gone: a process of this place (THIS_PLACE)
 * that no longer runs. A writer elsewhere (another host sharing the directory, another
 * container), or a name without one (written before names carried it), is not known to be.
 */
export function writerGone(name: string): boolean {
  const [, pid, place] = WRITER.exec(name) ?? [];
  if (place !== THIS_PLACE || !(Number(pid) > 0)) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** The signals that stop a command: Ctrl-C, a stop, a closed terminal. */
const STOPS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const writing = new Set<string>();
let taken: NodeJS.Signals[] = [];

/** Removes the files being written, then lets the signal end the process as it would have. */
function stopped(signal: NodeJS.Signals): void {
  for (const file of writing) rmSync(file, { force: true });
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
