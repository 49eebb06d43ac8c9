/**
 * `npm run bench`: issue 9's benchmark, from outside. The service runs as its own process
 * (`node dist/src/main.js`), the load generator (autocannon) in another, and bare Fastify
 * ceilings in their own processes in the same run; every figure is printed beside its
 * ceiling's and judged as a ratio. SQLite, then PostgreSQL (informative, but for comment
 * posting). Measured at the default settings (no LOG_LEVEL). Exits 1 when an SQLite target or
 * PostgreSQL's comment posting is missed, or an acknowledged comment was lost. The reference
 * runtime is Node.js 24, the one README recommends: the first and last lines name the Node.js
 * the run was on, and say so when it is another.
 *
 * Knobs: BENCH_PAIRS (a read path's paired loads, ceiling then service, default 11) and
 * BENCH_PAIR_SECONDS (each such load, default 1): on two shared cores a server's speed drifts
 * by half within seconds, which two short loads side by side share (bench/compare.ts);
 * BENCH_SECONDS (each measured load of the writes and of the rows beside a work, default 3),
 * BENCH_ROUNDS (their alternating rounds, default 3; comment posting always runs at least 5 and
 * is judged by the median of its rounds' ratios, bench/write-paths.ts),
 * BENCH_CONNECTIONS (default 50),
 * BENCH_CEILING_HEADERS (`off`: the read paths' ceilings send only their own headers, not the
 * service's security and caching headers as well; the yardstick before stop 89),
 * BENCH_DATABASE_URL (PostgreSQL server for the throwaway database, default
 * postgres://postgres@127.0.0.1:5432/postgres; `off` skips PostgreSQL),
 * BENCH_SQLITE (`off` skips SQLite, to measure PostgreSQL alone),
 * BENCH_SERVICE_NODE_ARGS (extra node arguments for the service, e.g. `--cpu-prof`),
 * BENCH_ONLY (comma-separated words: only the paths whose names contain one, e.g.
 * `healthz,oauth/me,cold start`; the peak RSS row is always printed),
 * BENCH_COMMENTS (comments seeded on the busy streamer, default 10000),
 * BENCH_HISTORY_DAYS (the days of stream history the "a year of history" rows seed, default
 * 365; shorter, the file's size is not judged: bench/history-year.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteDriver } from '../src/db/sqlite-driver.ts';
import { ensureBuilt } from './build.ts';
import { loadGenerator } from './load.ts';
import { createThrowaway, DEFAULT_SERVER_URL, type Throwaway } from './postgres.ts';
import { LEGEND, type Row, table } from './report.ts';
import { runSuite } from './suite.ts';
import type { SuiteOptions } from './compare.ts';
import { MIN_ROUNDS } from './write-paths.ts';

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    throw new Error(`${name} must be a positive integer (got ${raw})`);
  return Number(raw);
}

const seconds = positiveInt('BENCH_SECONDS', 3);
const connections = positiveInt('BENCH_CONNECTIONS', 50);
const rounds = positiveInt('BENCH_ROUNDS', 3);
const pairs = positiveInt('BENCH_PAIRS', 11);
const pairSeconds = positiveInt('BENCH_PAIR_SECONDS', 1);
const serverUrl = process.env.BENCH_DATABASE_URL || DEFAULT_SERVER_URL;
const only = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((word) => word.trim().toLowerCase())
  .filter(Boolean);
const serviceNodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
const log = (line: string) => console.log(`  ${line}`);

// Ctrl-C: the child processes end with the parent (test/helpers/service.ts); the throwaway PostgreSQL
// database is dropped first.
let dropDatabase: (() => Promise<void>) | undefined;
process.once('SIGINT', () => {
  console.log('\ninterrupted');
  void (dropDatabase?.() ?? Promise.resolve()).finally(() => process.exit(130));
});

const common = {
  load: { seconds, warmupSeconds: 1, rounds, pairs, pairSeconds, connections, timeoutSeconds: 20 },
  only,
  streamers: 1000,
  comments: positiveInt('BENCH_COMMENTS', 10_000),
  serviceNodeArgs,
  log,
};

async function sqliteSuite(): Promise<Row[] | string> {
  if (process.env.BENCH_SQLITE === 'off') return 'skipped: BENCH_SQLITE=off';
  const dir = mkdtempSync(join(tmpdir(), 'bench-sqlite-'));
  const file = join(dir, 'service.db');
  try {
    const opts: SuiteOptions = {
      ...common,
      databaseUrl: `sqlite:${file}`,
      ceilingDatabaseUrl: (name) => `sqlite:${join(dir, `ceiling-${name}.db`)}`,
      countStoredComments: async (streamerId) => {
        const db = new (sqliteDriver())(file, { fileMustExist: true });
        try {
          const row = db.prepare('select count(*) as n from comments where streamer_id = ?').get(streamerId);
          return (row as { n: number }).n;
        } finally {
          db.close();
        }
      },
      dir,
      enforce: true,
    };
    return await runSuite(opts);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresSuite(): Promise<Row[] | string> {
  if (serverUrl === 'off') return 'skipped: BENCH_DATABASE_URL=off';
  let db: Throwaway;
  try {
    db = await createThrowaway(serverUrl);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return `SKIPPED: PostgreSQL is unreachable or refused a new database at ${serverUrl} (${reason})`;
  }
  const drop = () =>
    db.drop().catch((err: unknown) => console.error(`note: could not drop ${db.url}: ${String(err)}`));
  dropDatabase = drop;
  const dir = mkdtempSync(join(tmpdir(), 'bench-pg-'));
  try {
    return await runSuite({
      ...common,
      databaseUrl: db.url,
      ceilingDatabaseUrl: () => db.url,
      countStoredComments: (streamerId) => db.countComments(streamerId),
      dir,
      enforce: false,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
    dropDatabase = undefined;
    await drop();
  }
}

/** The bench's figures are read on this major version of Node.js (README recommends it). */
const REFERENCE_NODE = 24;
const nodeMajor = Number(process.versions.node.split('.')[0]);
const runtime =
  nodeMajor === REFERENCE_NODE
    ? `Node.js ${process.version}`
    : `Node.js ${process.version} (NOT the reference Node.js ${REFERENCE_NODE}: not comparable)`;

const started = Date.now();
const setup =
  `${runtime}, ${availableParallelism()} cores, load by ${loadGenerator()}, ${connections} connections ` +
  `(the page of comments: 1); a read path: 1 s of warm-up each, then ${pairs} pair(s) of ${pairSeconds}-s ` +
  `loads, ceiling then service; the writes and the rows beside a work: ${seconds} s per load after 1 s of ` +
  `warm-up, ${rounds} round(s) (comment posting: ${Math.max(MIN_ROUNDS, rounds)}, judged by the median of their ratios)`;
console.log(`Benchmark (issue 9): ${setup}`);
ensureBuilt(log);

let failed = false;
const printed: string[] = [];
for (const [label, suite] of [
  ['SQLite', sqliteSuite],
  ['PostgreSQL', postgresSuite],
] as const) {
  console.log(`\n${label}`);
  try {
    const result = await suite();
    if (typeof result === 'string') {
      printed.push(`${label}: ${result}`);
      continue;
    }
    const informative = label === 'PostgreSQL' ? ' (targets informative but comment posting)' : '';
    printed.push(table(`${label}${informative}`, result));
    if (result.some((r) => !r.ok && r.enforced)) failed = true;
  } catch (err) {
    failed = true;
    printed.push(
      `${label}: the run failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    );
  }
}

console.log(`\n${printed.join('\n\n')}\n\n${LEGEND}`);
console.log(`\n${setup}; whole run ${((Date.now() - started) / 1000).toFixed(0)} s.`);
console.log(failed ? 'Result: targets MISSED (exit 1).' : 'Result: every enforced target met.');
process.exit(failed ? 1 : 0);
