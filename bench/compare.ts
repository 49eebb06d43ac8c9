/**
 * Measuring one path against its ceiling: the ceiling is started and warmed beside the warm
 * service, the two take the same short load in turn, pair after pair, and the pairs' ratios
 * become a report row judged against issue 9's target.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { answerHeaders, type CeilingOptions, startCeiling } from './ceilings.ts';
import { request } from './http.ts';
import { waitIdle } from './idle.ts';
import { measured, type Measured, runLoad, unexpectedOf } from './load.ts';
import type { CeilingMode } from './protocol.ts';
import { DASH, ms, ratio, type Row, rps } from './report.ts';
import type { ServerProcess } from '../test/helpers/service.ts';

export interface LoadSettings {
  seconds: number;
  warmupSeconds: number;
  /** Alternating rounds of ceiling and service for the writes and the rows beside a work (BENCH_ROUNDS). */
  rounds: number;
  /** Paired loads of a read path, ceiling then service (BENCH_PAIRS), each `pairSeconds` long. */
  pairs: number;
  pairSeconds: number;
  connections: number;
  timeoutSeconds: number;
}

export interface Context {
  service: ServerProcess;
  /** BENCH_ONLY: only the paths whose names contain one of these words (all when empty). */
  only: readonly string[];
  load: LoadSettings;
  /** Misses count toward the exit code (SQLite). */
  enforce: boolean;
  log: (line: string) => void;
}

/** One database's run of the suite (suite.ts), as run.ts sets it up. */
export interface SuiteOptions {
  /** The service's DATABASE_URL. */
  databaseUrl: string;
  /** The insert ceilings' database: files of their own on SQLite, the same database on PostgreSQL. */
  ceilingDatabaseUrl: (name: string) => string;
  /** Counts a streamer's comments in the database itself, after the service stopped. */
  countStoredComments: (streamerId: number) => Promise<number>;
  /** Scratch directory: precomputed answers, the service's working directory. */
  dir: string;
  /** Misses count toward the exit code. */
  enforce: boolean;
  load: LoadSettings;
  /** BENCH_ONLY's words, lower case (every path when empty). */
  only: readonly string[];
  streamers: number;
  comments: number;
  /** Extra node arguments for the service process (e.g. --cpu-prof). */
  serviceNodeArgs: string[];
  log: (line: string) => void;
}

export interface Load {
  path: string;
  /** Paths taken in turn instead of `path` alone (wrk's `request`, autocannon's `requests`). */
  paths?: readonly string[];
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  expect: readonly number[];
}

export interface Run extends Measured {
  /** Responses per status during the warm-up (writes made then are acknowledged too). */
  warmupCounts: Record<string, number>;
}

/**
 * One load of `seconds` on the target, which then finishes what the load left queued before
 * anything else starts, so no backlog spills over.
 */
async function loadFor(ctx: Context, target: ServerProcess, load: Load, seconds: number) {
  const summary = await runLoad({
    url: target.url + load.path,
    method: load.method ?? 'GET',
    headers: load.headers ?? {},
    ...(load.body === undefined ? {} : { body: load.body }),
    ...(load.paths === undefined ? {} : { paths: load.paths }),
    connections: load.connections ?? ctx.load.connections,
    seconds,
    timeoutSeconds: ctx.load.timeoutSeconds,
  });
  await waitIdle(target);
  return summary;
}

/** A warm-up (so that both sides run JIT-compiled code), then the measured load. */
export async function loadOn(ctx: Context, target: ServerProcess, load: Load): Promise<Run> {
  const warmup = await loadFor(ctx, target, load, ctx.load.warmupSeconds);
  const summary = await loadFor(ctx, target, load, ctx.load.seconds);
  return { ...measured(summary, load.expect), warmupCounts: warmup.statusCounts };
}

/** Starts a ceiling, loads it, stops it. */
export async function loadCeiling(
  ctx: Context,
  mode: CeilingMode,
  opts: CeilingOptions,
  load: Load,
): Promise<Run> {
  const ceiling = await startCeiling(mode, opts);
  try {
    return await loadOn(ctx, ceiling, load);
  } finally {
    await ceiling.stop();
  }
}

export interface Comparison {
  path: string;
  service: Run;
  ceiling: Run;
  /** Each round's ceiling and service, measured one right after the other. */
  rounds?: { service: Run; ceiling: Run }[];
}

/**
 * The ratio a row is judged by: the median of the pairs' (or rounds') own ratios when there
 * were several. Another tenant of the machine slowing one load (a service round of 14,312
 * req/s between 23,852 and 26,976) moved the ratio of the sums by 0.1x; the median of the
 * pairs does not follow one such load (docs/benchmarks.md "Stop 38").
 */
export function ratioOf(cmp: Comparison): number {
  const each = (cmp.rounds ?? [])
    .filter((r) => r.ceiling.rps > 0)
    .map((r) => r.service.rps / r.ceiling.rps)
    .sort((a, b) => a - b);
  if (each.length < 2) return cmp.ceiling.rps > 0 ? cmp.service.rps / cmp.ceiling.rps : 0;
  const mid = Math.floor(each.length / 2);
  return each.length % 2 === 1 ? each[mid]! : (each[mid - 1]! + each[mid]!) / 2;
}

export interface CeilingLoad {
  mode: CeilingMode;
  opts?: CeilingOptions;
  load: Load;
}

/**
 * The ceiling and the service under the same load, in turn: both warmed, then BENCH_PAIRS
 * pairs of short loads, the ceiling's right before the service's. On a shared machine the
 * speed of both drifts by half within seconds; two short loads side by side see the same
 * drift, and the median of the pairs' ratios does not follow the pairs it spoiled. The
 * ceiling is one process for the whole row, as the service is (docs/benchmarks.md, "The
 * bench against itself").
 */
export async function compare(
  ctx: Context,
  path: string,
  ceiling: CeilingLoad,
  service: Load,
  target: ServerProcess = ctx.service,
): Promise<Comparison> {
  // The service's answer once, for the headers the ceiling sends with its own.
  const shown = await request(target.url + service.path, { headers: service.headers ?? {} });
  const headers = process.env.BENCH_CEILING_HEADERS === 'off' ? {} : answerHeaders(shown.headers);
  const bare = await startCeiling(ceiling.mode, { ...ceiling.opts, headers });
  let comparison: Comparison;
  try {
    comparison = await inPairs(ctx, path, { on: bare, load: ceiling.load }, { on: target, load: service });
  } finally {
    await bare.stop();
  }
  ctx.log(
    `${path}: service ${figures(
      comparison.service,
      comparison.rounds!.map((r) => r.service),
    )}; ` +
      `ceiling ${figures(
        comparison.ceiling,
        comparison.rounds!.map((r) => r.ceiling),
      )}; ` +
      `ratio ${ratio(ratioOf(comparison))}${eachRatio(comparison.rounds!)}; service ${target.memoryNote()}`,
  );
  return comparison;
}

/** A side of a paired measure: the process loaded and its load. */
export interface Side {
  on: ServerProcess;
  load: Load;
}

/**
 * Both sides warmed, then BENCH_PAIRS pairs of short loads, `ceiling`'s right before
 * `service`'s: the row's comparison, judged by the median of the pairs' ratios.
 */
export async function inPairs(ctx: Context, path: string, ceiling: Side, service: Side): Promise<Comparison> {
  await loadFor(ctx, ceiling.on, ceiling.load, ctx.load.warmupSeconds);
  await loadFor(ctx, service.on, service.load, ctx.load.warmupSeconds);
  const measure = async ({ on, load }: Side): Promise<Run> => ({
    ...measured(await loadFor(ctx, on, load, ctx.load.pairSeconds), load.expect),
    warmupCounts: {},
  });
  const rounds: { service: Run; ceiling: Run }[] = [];
  for (let pair = 0; pair < ctx.load.pairs; pair++) {
    const c = await measure(ceiling);
    rounds.push({ ceiling: c, service: await measure(service) });
  }
  const all = (side: 'service' | 'ceiling') => combine(rounds.map((r) => r[side]));
  return { path, service: all('service'), ceiling: all('ceiling'), rounds };
}

/** Each round's or pair's ratio, for the log. */
export function eachRatio(rounds: { service: Run; ceiling: Run }[]): string {
  if (rounds.length < 2) return '';
  return ` (${rounds.length} pairs: ${rounds.map((r) => ratio(r.service.rps / r.ceiling.rps)).join(', ')})`;
}

/** Figures for the log; with the rounds' req/s when there were several. */
export function figures(m: Run, rounds: Run[] = []): string {
  const each = rounds.length > 1 ? ` (rounds: ${rounds.map((r) => rps(r.rps)).join(', ')})` : '';
  return `${rps(m.rps)} req/s, p99 ${p99(m)}${each}`;
}

/** Several runs as one: req/s over the whole measured time, the median run's p50 and p99. */
export function combine(runs: Run[]): Run {
  if (runs.length === 1) return runs[0]!;
  const sum = (f: (r: Run) => number) => runs.reduce((total, r) => total + f(r), 0);
  const median = (f: (r: Run) => number) => runs.map(f).sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
  const add = (counts: Record<string, number>[]) => {
    const out: Record<string, number> = {};
    for (const c of counts) for (const [k, v] of Object.entries(c)) out[k] = (out[k] ?? 0) + v;
    return out;
  };
  const duration = sum((r) => r.summary.duration);
  const latency = {
    p50: median((r) => r.p50),
    p99: median((r) => r.p99),
    max: Math.max(...runs.map((r) => r.summary.latency.max)),
  };
  return {
    answered: sum((r) => r.answered),
    rps: sum((r) => r.answered) / duration,
    p50: latency.p50,
    p99: latency.p99,
    unexpected: sum((r) => r.unexpected),
    expected: runs[0]!.expected,
    summary: {
      duration,
      statusCounts: add(runs.map((r) => r.summary.statusCounts)),
      errors: sum((r) => r.summary.errors),
      timeouts: sum((r) => r.summary.timeouts),
      latency,
      bytesPerSecond: sum((r) => r.summary.bytesPerSecond * r.summary.duration) / duration,
    },
    warmupCounts: add(runs.map((r) => r.warmupCounts)),
  };
}

const p99 = (m: Measured) => (m.answered === 0 ? DASH : ms(m.p99));

export interface Goal {
  target: string;
  /** Minimum service/ceiling throughput ratio. */
  minRatio?: number;
  /** Maximum service p99 as a multiple of the ceiling's p99. */
  maxP99Factor?: number;
  /** The service's p99 must be under this, milliseconds. */
  underP99Ms?: number;
  /** Problems the probes found: a miss whatever the figures. */
  problems?: string[];
}

export function rowOf(ctx: Context, cmp: Comparison, goal: Goal): Row {
  const { service: s, ceiling: c } = cmp;
  const r = ratioOf(cmp);
  const notes = [...(goal.problems ?? [])];
  if (s.unexpected > 0) notes.push(unexpectedOf(s));
  if (c.unexpected > 0) notes.push(`ceiling: ${unexpectedOf(c)}`);
  let ok = notes.length === 0 && s.answered > 0;
  if (goal.minRatio !== undefined && r < goal.minRatio) ok = false;
  if (goal.maxP99Factor !== undefined && s.p99 > goal.maxP99Factor * Math.max(c.p99, 1)) {
    ok = false;
    notes.push(`p99 ${ms(s.p99)} is over ${goal.maxP99Factor}x the ceiling's ${ms(c.p99)}`);
  }
  if (goal.underP99Ms !== undefined && !(s.answered > 0 && s.p99 < goal.underP99Ms)) ok = false;
  return {
    path: cmp.path,
    service: rps(s.rps),
    serviceP99: p99(s),
    ceiling: rps(c.rps),
    ceilingP99: p99(c),
    ratio: ratio(r),
    target: goal.target,
    ok,
    enforced: ctx.enforce,
    notes,
  };
}

/** One measured path: its row's name and target, and how to measure it. */
export interface Case {
  path: string;
  target: string;
  run: (path: string, target: string) => Promise<Row>;
}

/** Runs the cases in order; one that cannot be measured is a miss, and the others still run. */
export async function runCases(ctx: Context, cases: readonly Case[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const c of cases) {
    if (!selected(ctx.only, c.path)) continue;
    try {
      rows.push(await c.run(c.path, c.target));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      ctx.log(`${c.path}: could not be measured: ${message}`);
      rows.push(missedRow(ctx, c.path, c.target, `could not be measured: ${message}`));
      await waitIdle(ctx.service);
    }
  }
  return rows;
}

/** Is the path named by BENCH_ONLY (or is every path measured)? */
export function selected(only: readonly string[], path: string): boolean {
  const name = path.toLowerCase();
  return only.length === 0 || only.some((word) => name.includes(word));
}

/** A row for a path that was not measured because a probe already failed. */
export function missedRow(ctx: Context, path: string, target: string, problem: string): Row {
  return {
    path,
    service: DASH,
    serviceP99: DASH,
    ceiling: DASH,
    ceilingP99: DASH,
    ratio: DASH,
    target,
    ok: false,
    enforced: ctx.enforce,
    notes: [problem],
  };
}

/**
 * One request to the service, for what the load generator cannot check. A 503 (the service
 * shedding load just after a heavy case) is retried for up to 20 s, as a visitor would.
 */
export async function probe(ctx: Context, path: string, headers: Record<string, string> = {}) {
  for (let attempt = 1; ; attempt++) {
    const answer = await request(ctx.service.url + path, { headers });
    if (answer.status !== 503 || attempt === 20) return answer;
    await sleep(1000);
  }
}

/** A probe that must answer 200 (the answers the ceilings precompute, the checks read). */
export async function probeOk(ctx: Context, path: string, headers: Record<string, string> = {}) {
  const answer = await probe(ctx, path, headers);
  if (answer.status !== 200) {
    throw new Error(`GET ${path} answered ${answer.status}: ${answer.body.toString().slice(0, 200)}`);
  }
  return answer;
}
