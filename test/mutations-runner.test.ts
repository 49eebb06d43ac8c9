import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm run mutations` stopped while a mutation's tests run (Ctrl-C, or SIGTERM from a
 * supervisor): the mutated file is as it was, nothing the runner started is left running, and
 * the runner says it was stopped (exit code 128 + the signal's number). The file keeps its
 * modification time too: a restored file newer than the build's stamp made the build look stale
 * (scripts/build-freshness.js) for every later run. The runner reads a
 * fixture list (`--list`) whose one mutation changes a file of a temporary folder; its tests
 * (a quick file) are still starting when the signal comes.
 */
const KEPT = 'export const rule = "kept";\n';

/** The processes still running (not ended, not zombies) whose environment holds `mark`. */
function marked(mark: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(mark);
      } catch {
        return false; // ended meanwhile, or not ours
      }
    })
    .map(Number);
}

describe.skipIf(process.env.TEST_DB === 'postgres')('the mutation runner stopped while tests run', () => {
  let dir = '';
  beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), 'mutation-runner-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s: the file restored, its tests stopped, exit code %i', async (signal, code) => {
    const target = join(dir, `${signal}.ts`);
    writeFileSync(target, KEPT);
    // Written long before the build (whole seconds: the times given back are whole milliseconds).
    const before = new Date(Date.UTC(2026, 0, 1));
    utimesSync(target, before, before);
    const list = join(dir, `${signal}-list.mjs`);
    const mutation = {
      name: 'the fixture rule broken',
      file: target,
      from: '"kept"',
      to: '"broken"',
      tests: ['test/mutations-apply.test.ts'],
      project: 'sqlite',
    };
    writeFileSync(list, `export const MUTATIONS = ${JSON.stringify([mutation])};\n`);
    // Every process the runner starts inherits its environment, and so this mark.
    const mark = `MUTATION_RUNNER_MARK=${randomUUID()}`;
    const runner: ChildProcess = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/mutations/run.ts', '--list', list],
      { env: { ...process.env, MUTATION_RUNNER_MARK: mark.split('=')[1] }, stdio: 'ignore' },
    );
    const exited = new Promise((done) => runner.once('exit', (status, by) => done({ status, by })));
    // The file mutated and the mutation's tests started: a process of the runner's beside it.
    await expect
      .poll(() => readFileSync(target, 'utf8') !== KEPT && marked(mark).some((pid) => pid !== runner.pid))
      .toBe(true);
    runner.kill(signal);
    expect(await exited).toEqual({ status: code, by: null });
    expect(readFileSync(target, 'utf8')).toBe(KEPT);
    expect(statSync(target).mtime).toEqual(before);
    // The runner ends once its tests' processes have: none is left to finish on its own.
    expect(marked(mark)).toEqual([]);
  });
});
