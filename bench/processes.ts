/**
 * Server processes under test (the service, the ceilings): spawned with a clean environment,
 * timed from spawn to their first 200, watched for peak memory, stopped at the end. Every
 * process started here is stopped when the benchmark exits, however it exits.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { freePort } from '../test/soak/lib/net.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from './http.ts';

export interface Server {
  name: string;
  pid: number;
  base: string;
  /** Milliseconds from spawn to the first 200 on the ready path. */
  startMs: number;
  /** The process's peak resident memory so far (VmHWM), MiB; null where /proc is absent. */
  peakRssMb(): number | null;
  /** Resolves once the process has stopped using the CPU (work queued by a load is done). */
  waitIdle(): Promise<void>;
  /** Stops the process (SIGTERM, then SIGKILL after 10 s) and waits for it to end. */
  stop(): Promise<void>;
}

export interface StartOptions {
  name: string;
  script: string;
  env: Record<string, string>;
  /** GET path that answers 200 once the process is ready. */
  readyPath: string;
  cwd?: string;
  nodeArgs?: string[];
  timeoutMs?: number;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export { freePort };

/** A memory figure of /proc/<pid>/status (VmHWM: peak resident, VmRSS: resident now), MiB. */
function memoryMb(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return null;
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(file, 'utf8'));
  return match ? Number(match[1]) / 1024 : null;
}

/** Where the peak comes from, for the log: "RSS 120 MiB (peak 256 MiB)". */
export function memoryNote(server: Server): string {
  const now = memoryMb(server.pid, 'VmRSS');
  const peak = server.peakRssMb();
  return now === null || peak === null ? '' : `RSS ${now.toFixed(0)} MiB (peak ${peak.toFixed(0)} MiB)`;
}

/** CPU time the process has used, in clock ticks; null where /proc is absent. */
function cpuTicks(pid: number): number | null {
  const file = `/proc/${pid}/stat`;
  if (!existsSync(file)) return null;
  const stat = readFileSync(file, 'utf8');
  // Fields after "(comm)": state is the first; utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** Two quiet quarter-seconds in a row (under 10% of a core), or two minutes at most. */
async function waitIdle(pid: number): Promise<void> {
  let last = cpuTicks(pid);
  if (last === null) return sleep(1000).then(() => undefined);
  const deadline = performance.now() + 120_000;
  let quiet = 0;
  while (quiet < 2 && performance.now() < deadline) {
    await sleep(250);
    const now = cpuTicks(pid);
    if (now === null) return;
    quiet = now - last <= 2 ? quiet + 1 : 0;
    last = now;
  }
}

/** Spawns `node <script>` and resolves once `readyPath` answers 200. */
export async function startServer(opts: StartOptions): Promise<Server> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  // A clean environment: nothing from the caller's shell (provider secrets, DATABASE_URL, a
  // stray NODE_OPTIONS) changes what is measured.
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), opts.script], {
    cwd: opts.cwd,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exitCode = code ?? (signal ? -1 : null);
      running.delete(child);
      resolve();
    }),
  );

  const deadline = started + (opts.timeoutMs ?? 60_000);
  let startMs = 0;
  for (;;) {
    if (exitCode !== undefined) {
      throw new Error(`${opts.name} exited (${exitCode}) before it was ready:\n${output}`);
    }
    if (performance.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${opts.name} was not ready within ${(opts.timeoutMs ?? 60_000) / 1000} s:\n${output}`);
    }
    const answer = await request(base + opts.readyPath, { agent: false }).catch(() => null);
    if (answer?.status === 200) {
      startMs = performance.now() - started;
      break;
    }
    await sleep(5);
  }

  const pid = child.pid!;
  return {
    name: opts.name,
    pid,
    base,
    startMs,
    peakRssMb: () => memoryMb(pid, 'VmHWM'),
    waitIdle: () => waitIdle(pid),
    async stop() {
      if (exitCode !== undefined) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
