/**
 * Runs one load in a process of its own, wrk when installed (wrk.ts), else autocannon in a
 * forked child (load-worker.ts), and reads the figures the report needs from its summary.
 */
import { fork } from 'node:child_process';
import { compileChild } from './build.ts';
import type { LoadRequest, LoadSummary } from './protocol.ts';
import { runWrk, SUCCESS_CLASS, wrkAvailable } from './wrk.ts';

let workerScript: string | undefined;

/** The load generator in use, for the report. */
export function loadGenerator(): string {
  return wrkAvailable() ? 'wrk (1 thread)' : 'autocannon';
}

export function runLoad(request: LoadRequest): Promise<LoadSummary> {
  if (wrkAvailable()) return runWrk(request);
  workerScript ??= compileChild('load-worker');
  const child = fork(workerScript, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    let settled = false;
    child.once('message', (message) => {
      settled = true;
      const answer = message as { summary?: LoadSummary; error?: string };
      if (answer.summary) resolve(answer.summary);
      else reject(new Error(`load generator: ${answer.error ?? 'no answer'}`));
    });
    child.once('exit', (code) => {
      if (!settled) reject(new Error(`load generator exited (${code}) without an answer`));
    });
    child.send(request);
  });
}

export interface Measured {
  /** Responses with an expected status in the measured window. */
  answered: number;
  /** The same per second. */
  rps: number;
  p50: number;
  p99: number;
  /** Responses with any other status, plus connection errors and timeouts. */
  unexpected: number;
  expected: readonly number[];
  summary: LoadSummary;
}

/** What the unexpected answers were: "13 answers 503, 2 connection errors (1 timeout)". */
export function unexpectedOf(m: Measured): string {
  const parts = Object.entries(m.summary.statusCounts)
    .filter(([status, count]) => count > 0 && !isExpected(status, m.expected))
    .map(([status, count]) => `${count} answers ${status}`);
  const { errors, timeouts } = m.summary;
  if (errors > 0) parts.push(`${errors} connection errors${timeouts > 0 ? ` (${timeouts} timeouts)` : ''}`);
  return parts.join(', ');
}

/**
 * A status (or wrk's class) that the load expects. wrk counts by class only: its 2xx and 3xx
 * answers are the expected ones when every expected status is in that class, as on every
 * path of this benchmark (each path is probed once with a real request first).
 */
function isExpected(status: string, expected: readonly number[]): boolean {
  if (status === SUCCESS_CLASS) return expected.every((s) => s >= 200 && s < 400);
  return expected.includes(Number(status));
}

export function measured(summary: LoadSummary, expected: readonly number[]): Measured {
  let good = 0;
  let other = summary.errors;
  for (const [status, count] of Object.entries(summary.statusCounts)) {
    if (isExpected(status, expected)) good += count;
    else other += count;
  }
  return {
    answered: good,
    rps: good / Math.max(summary.duration, 1e-9),
    p50: summary.latency.p50,
    p99: summary.latency.p99,
    unexpected: other,
    expected,
    summary,
  };
}
