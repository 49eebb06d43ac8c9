/**
 * `npm run mutations [--list <module>] [name]`: breaks each rule on purpose, one at a time, runs
 * the tests that pin it, and expects them to fail. A mutation the tests survive names a test that
 * cannot fail. Restores every file afterwards, with its modification time, also on Ctrl-C or
 * SIGTERM. Not part of `npm test` (a few minutes). `--list` reads the mutations of another
 * module (its `MUTATIONS`).
 *
 * Every command (a build, a mutation's tests) runs in a process group of its own: on a signal,
 * at the time limit or once the command has ended, the whole group is stopped, so nothing a test
 * started (a service, a worker) outlives its run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Mutation } from './list.ts';

/** A mutation's tests or a build that take longer than this are hung (a test's own limit is 4 min). */
const LIMIT_MS = 20 * 60_000;

const { values, positionals } = parseArgs({ options: { list: { type: 'string' } }, allowPositionals: true });
const only = positionals[0];
const { MUTATIONS } = (await import(
  values.list ? pathToFileURL(resolve(values.list)).href : './list.ts'
)) as { MUTATIONS: Mutation[] };

/**
 * The mutated file's text and times as they were. The restore gives the times back too: a
 * restored file with a new modification time made the build look older than its sources
 * (scripts/build-freshness.js), so that every later run chose the source, and
 * test/release.test.ts skipped (and its mutations survived) until someone built again by hand.
 */
const originals = new Map<string, { text: string; atime: Date; mtime: Date }>();
const restore = () => {
  for (const [file, { text, atime, mtime }] of originals) {
    writeFileSync(file, text);
    utimesSync(file, atime, mtime);
  }
  originals.clear();
};

/** The command running now, the leader of its process group. */
let running: ChildProcess | null = null;
/** Set by SIGINT or SIGTERM: the run ends, with this exit code, once its group has. */
let signalled = false;
/**
 * Stops the running command's process group, whatever is left of it; answers once no process
 * of the group is left (SIGKILL is delivered, and the killed reaped, a moment later).
 */
async function stopGroup(): Promise<void> {
  const group = running?.pid;
  if (group === undefined) return;
  const signal = (name: NodeJS.Signals | 0) => {
    try {
      process.kill(-group, name);
      return true;
    } catch {
      return false; // the group has ended
    }
  };
  if (!signal('SIGKILL')) return;
  while (signal(0)) await new Promise((next) => setTimeout(next, 10));
}
for (const [name, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.on(name, () => {
    signalled = true;
    const stopped = stopGroup();
    restore();
    void stopped.then(() => process.exit(code));
  });
}

/** How a command ended: exit code 0, another end, or stopped at LIMIT_MS. */
type Ended = 'passed' | 'failed' | 'hung';
/** Runs a command in a process group of its own, stopped once it ends or at LIMIT_MS. */
function run(command: string, args: string[]): Promise<Ended> {
  return new Promise((done) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    running = child;
    let hung = false;
    const limit = setTimeout(() => {
      hung = true;
      void stopGroup();
    }, LIMIT_MS);
    const end = async (ended: Ended) => {
      clearTimeout(limit);
      await stopGroup();
      running = null;
      // Stopped by a signal: no next mutation, no verdict; the handler exits.
      if (!signalled) done(hung ? 'hung' : ended);
    };
    child.once('error', () => void end('failed'));
    child.once('exit', (code) => void end(code === 0 ? 'passed' : 'failed'));
  });
}

const postgres = Boolean(process.env.TEST_DATABASE_URL);
/** Builds the page (web/ to dist); answers whether it built. */
const buildWeb = async () => (await run('npm', ['run', 'build:web'])) === 'passed';
/** Builds everything (the tests run the build when it is current); answers whether it built. */
const build = async () => (await run('npm', ['run', 'build'])) === 'passed';
let survived = 0;
for (const m of MUTATIONS.filter((x) => !only || x.name.includes(only))) {
  if (m.project === 'postgres' && !postgres) {
    console.log(`SKIPPED   ${m.name} (needs TEST_DATABASE_URL)`);
    continue;
  }
  const text = readFileSync(m.file, 'utf8');
  const count = text.split(m.from).length - 1;
  if (count !== 1) {
    console.log(`BROKEN    ${m.name}: "${m.from}" occurs ${count} times in ${m.file}`);
    survived++;
    continue;
  }
  const { atime, mtime } = statSync(m.file);
  originals.set(m.file, { text, atime, mtime });
  writeFileSync(m.file, text.replace(m.from, m.to));
  // The browser tests load the built page: a change to it counts once built.
  if ((m.web && !(await buildWeb())) || (m.build && !(await build()))) {
    restore();
    console.log(`BROKEN    ${m.name}: ${m.web ? 'the page' : 'the service'} does not build with it`);
    survived++;
    continue;
  }
  const projects = m.project ? [m.project] : ['sqlite', 'browser'];
  const ended = await run('npx', ['vitest', 'run', ...projects.flatMap((p) => ['--project', p]), ...m.tests]);
  restore();
  if (m.web && !(await buildWeb())) throw new Error('the page does not build again after the restore');
  if (m.build && !(await build())) throw new Error('the service does not build again after the restore');
  if (ended === 'passed') survived++;
  const hung = ended === 'hung' ? ` (its tests hung: stopped after ${LIMIT_MS / 60_000} min)` : '';
  console.log(`${ended === 'passed' ? 'SURVIVED' : 'KILLED '}  ${m.name}${hung}`);
}
console.log(
  survived === 0 ? '\nEvery mutation was caught by a test.' : `\n${survived} mutation(s) survived.`,
);
process.exit(survived === 0 ? 0 : 1);
