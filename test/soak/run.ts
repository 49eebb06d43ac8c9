/**
 * `npm run soak`: every scenario of SECURITY.md 26-31 at full length, and load shedding on the
 * real event loop (which the tests replace with a delay they set), one after the other, each
 * in its own process against the built service (`npm run soak` builds first). Each prints one
 * `VERDICT <scenario>: PASS|FAIL (...)` line; the run exits non-zero when any fails.
 * `npm run soak -- fuzz kill` runs only the scenarios whose names start with those words.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensurePostgresUp, postgresAnswers } from './lib/database.ts';
import { ROOT } from '../helpers/service.ts';

const SCENARIOS: [name: string, file: string, ...args: string[]][] = [
  ['kill-9', 'kill-nine.ts'],
  ['instances (sqlite)', 'instances.ts', '--db', 'sqlite'],
  ['instances (postgres)', 'instances.ts', '--db', 'postgres'],
  ['concurrent-start (sqlite)', 'concurrent-start.ts', '--db', 'sqlite'],
  ['concurrent-start (postgres)', 'concurrent-start.ts', '--db', 'postgres'],
  ['saturation (sqlite)', 'saturation.ts', '--db', 'sqlite'],
  ['saturation (postgres)', 'saturation.ts', '--db', 'postgres'],
  ['load-shedding', 'load-shedding.ts'],
  ['fuzz (sqlite)', 'fuzz.ts', '--db', 'sqlite'],
  ['fuzz (postgres)', 'fuzz.ts', '--db', 'postgres'],
  ['wal-bounded', 'wal-bounded.ts'],
  ['online-backup', 'online-backup.ts'],
  // Last: it stops and restarts the PostgreSQL server.
  ['pg-outage', 'pg-outage.ts'],
];
const LIMIT_MS = 15 * 60_000;

async function runScenario(name: string, file: string, args: string[]): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/soak', file), ...args], {
    cwd: ROOT,
    env: { ...process.env, SOAK_ENTRY: 'dist' },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true, // its own process group, so that a timeout also ends the servers it started
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    process.stdout.write(chunk);
  });
  const timer = setTimeout(() => {
    process.kill(-child.pid!, 'SIGTERM');
    setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 10_000).unref();
  }, LIMIT_MS);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  const verdict = out.split('\n').findLast((line) => line.startsWith('VERDICT '));
  if (verdict) return verdict;
  const line = `VERDICT ${name}: FAIL (the script ended with exit code ${code} and no verdict${code === null ? `, stopped after ${LIMIT_MS / 60_000} minutes` : ''})`;
  console.log(line);
  return line;
}

const wanted = process.argv.slice(2);
const chosen = SCENARIOS.filter(([name]) => wanted.length === 0 || wanted.some((w) => name.startsWith(w)));
const verdicts: string[] = [];
const started = Date.now();
for (const [name, file, ...args] of chosen) {
  verdicts.push(await runScenario(name, file, args));
  // Whatever happened in the scenario, PostgreSQL is left running for everyone else.
  if (!postgresAnswers()) await ensurePostgresUp();
}
const failed = verdicts.filter((v) => / FAIL \(/.test(v));
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
console.log(
  `\nsoak: ${verdicts.length - failed.length} of ${verdicts.length} scenarios passed in ${minutes} min, Node ${process.version}`,
);
if (failed.length)
  console.log(`soak: failed: ${failed.map((v) => /^VERDICT (.+?): FAIL/.exec(v)?.[1]).join(', ')}`);
process.exit(failed.length ? 1 : 0);
