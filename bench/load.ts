/**
 * Runs one load in a forked child process (load-worker.ts, autocannon) and reads the figures
 * the report needs from its summary.
 */
import { fork } from 'node:child_process';
import { compileChild } from './build.ts';
import type { LoadRequest, LoadSummary } from './protocol.ts';

let workerScript: string | undefined;

export function runLoad(request: LoadRequest): Promise<LoadSummary> {
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
    .filter(([status]) => !m.expected.includes(Number(status)))
    .map(([status, count]) => `${count} answers ${status}`);
  const { errors, timeouts } = m.summary;
  if (errors > 0) parts.push(`${errors} connection errors${timeouts > 0 ? ` (${timeouts} timeouts)` : ''}`);
  return parts.join(', ');
}

export function measured(summary: LoadSummary, expected: readonly number[]): Measured {
  let good = 0;
  let other = summary.errors;
  for (const [status, count] of Object.entries(summary.statusCounts)) {
    if (expected.includes(Number(status))) good += count;
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
