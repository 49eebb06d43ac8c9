/**
 * `npm run mutations`: breaks each rule on purpose, one at a time, runs the tests that pin
 * it, and expects them to fail. A mutation the tests survive names a test that cannot fail.
 * Restores every file afterwards (also on Ctrl-C). Not part of `npm test` (a few minutes).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { MUTATIONS } from './list.ts';

const only = process.argv[2];
const originals = new Map<string, string>();
const restore = () => {
  for (const [file, text] of originals) writeFileSync(file, text);
  originals.clear();
};
process.on('SIGINT', () => {
  restore();
  process.exit(130);
});

const postgres = Boolean(process.env.TEST_DATABASE_URL);
/** Builds the page (web/ to dist); answers whether it built. */
const buildWeb = () => spawnSync('npm', ['run', 'build:web'], { encoding: 'utf8' }).status === 0;
/** Builds everything (the tests run the build when it is current); answers whether it built. */
const build = () => spawnSync('npm', ['run', 'build'], { encoding: 'utf8' }).status === 0;
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
  originals.set(m.file, text);
  writeFileSync(m.file, text.replace(m.from, m.to));
  // The browser tests load the built page: a change to it counts once built.
  if ((m.web && !buildWeb()) || (m.build && !build())) {
    restore();
    console.log(`BROKEN    ${m.name}: ${m.web ? 'the page' : 'the service'} does not build with it`);
    survived++;
    continue;
  }
  const projects = m.project ? [m.project] : ['sqlite', 'browser'];
  const run = spawnSync('npx', ['vitest', 'run', ...projects.flatMap((p) => ['--project', p]), ...m.tests], {
    encoding: 'utf8',
    env: { ...process.env },
  });
  restore();
  if (m.web && !buildWeb()) throw new Error('the page does not build again after the restore');
  if (m.build && !build()) throw new Error('the service does not build again after the restore');
  const killed = run.status !== 0;
  if (!killed) survived++;
  console.log(`${killed ? 'KILLED ' : 'SURVIVED'}  ${m.name}`);
}
console.log(
  survived === 0 ? '\nEvery mutation was caught by a test.' : `\n${survived} mutation(s) survived.`,
);
process.exit(survived === 0 ? 0 : 1);
