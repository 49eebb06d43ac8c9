/**
 * Issue 30, item 8: instances started at the same moment on a fresh SQLite file all start.
 * Switching a fresh file to WAL takes a lock that SQLite refuses at once (SQLITE_BUSY,
 * without its busy timeout) while another connection holds the file; a start must wait for
 * it, never exit with `database is locked`.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { dbKind } from './helpers/database.ts';

/** Starting processes at once: a few, so the test stays within the machine. */
const INSTANCES = 6;
const TRIALS = 40;

class Starter {
  readonly child: ChildProcessWithoutNullStreams;
  readonly #lines: Interface;
  readonly #waiting: { resolve: (line: string) => void; reject: (err: Error) => void }[] = [];

  constructor() {
    this.child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/start-child.ts'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.#lines = createInterface({ input: this.child.stdout });
    this.#lines.on('line', (line) => this.#waiting.shift()?.resolve(line));
    // One listener for the process's life (one per line awaited passed Node's limit of 10).
    this.child.once('exit', (code) => {
      for (const w of this.#waiting.splice(0)) w.reject(new Error(`the start process exited (${code})`));
    });
  }

  next(): Promise<string> {
    return new Promise((resolve, reject) => {
      if (this.child.exitCode !== null)
        reject(new Error(`the start process exited (${this.child.exitCode})`));
      else this.#waiting.push({ resolve, reject });
    });
  }

  /** Starts on `url`; resolves with `ok` or `error <message>`. */
  start(url: string): Promise<string> {
    const answer = this.next();
    this.child.stdin.write(`go ${url}\n`);
    return answer;
  }
}

const dir = mkdtempSync(join(tmpdir(), 'start-race-'));
const starters: Starter[] = [];
afterAll(() => {
  for (const s of starters) s.child.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(dbKind !== 'sqlite')('instances started together on a fresh SQLite file', () => {
  it(`${INSTANCES} starts at once, ${TRIALS} times over, each on a new file: every one starts`, async () => {
    for (let i = 0; i < INSTANCES; i++) starters.push(new Starter());
    expect(await Promise.all(starters.map((s) => s.next()))).toEqual(starters.map(() => 'ready'));
    const failures: string[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const url = `sqlite:${join(dir, `fresh-${trial}.db`)}`;
      const answers = await Promise.all(starters.map((s) => s.start(url)));
      failures.push(...answers.filter((a) => a !== 'ok').map((a) => `trial ${trial}: ${a}`));
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
