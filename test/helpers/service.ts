/**
 * The service as a child process, for what needs a real process: the start and fault tests,
 * the soak and the bench (the ordinary tests build the app in process, helpers/app.ts). It
 * starts with `npm start`'s command line (src/node-args.ts: node's arguments and the malloc
 * environment), or through `npm start` itself.
 *
 * Under it, the one spawn-and-watch helper for server processes, which the bench's ceiling
 * servers use too: a clean environment, the output kept, the exit watched, readiness (the
 * line it prints once it listens, then a 200), the time from spawn to it, memory read from
 * /proc, a clean stop. Every process started
 * here is killed when the process that started it exits, however it exits.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { staleReason } from '../../scripts/build-freshness.js';
import { SERVICE_ENV, SERVICE_NODE_ARGS } from '../../src/node-args.ts';
import { freePort } from '../soak/lib/net.ts';

/** The repository's root directory. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const ADMIN_PASSWORD = 'soak administrator password';
const SESSION_SECRET = 'soak-session-secret-0123456789abcdef';

/**
 * What runs by default: `dist` the build (`node dist/src/main.js`, what `npm start` runs;
 * `npm run soak` and `npm test` build first), `src` the TypeScript source through tsx.
 * SOAK_ENTRY chooses; otherwise the build when it is current by `npm start`'s rule
 * (scripts/build-freshness.js), else the source, so a stale build is never what gets tested.
 */
export const entry: 'dist' | 'src' =
  process.env.SOAK_ENTRY === 'dist' || process.env.SOAK_ENTRY === 'src'
    ? process.env.SOAK_ENTRY
    : staleReason(ROOT) === null
      ? 'dist'
      : 'src';

/**
 * The service's entry as plain `node` arguments (no `npm start` options): the build when it is
 * current, else the source through tsx. A start from the build takes a third of the time, and
 * start tests (start-log, database, migration-newer) start it often.
 */
export const MAIN =
  entry === 'dist' ? [join(ROOT, 'dist/src/main.js')] : ['--import', 'tsx', join(ROOT, 'src/main.ts')];

/** The command line that runs a script of the project: built JavaScript or TypeScript source. */
export function nodeArgs(script: 'main' | 'cli', from: 'dist' | 'src' = entry): string[] {
  const file = script === 'main' ? 'src/main' : 'src/cli/main';
  return from === 'dist'
    ? [...SERVICE_NODE_ARGS, join(ROOT, 'dist', `${file}.js`)]
    : [...SERVICE_NODE_ARGS, '--import', 'tsx', join(ROOT, `${file}.ts`)];
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const running = new Set<ServerProcess>();
// A test or scenario that dies must not leave servers behind.
process.once('exit', () => {
  for (const server of running) server.kill('SIGKILL');
});

/** A resident-memory figure of /proc/<pid>/status (VmHWM: peak, VmRSS: now), MiB; null without /proc. */
function memoryMiB(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return null;
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(file, 'utf8'));
  return match ? Number(match[1]) / 1024 : null;
}

/** What a server prints once it listens: the service ("Streamer rating is listening on ..."), a ceiling. */
const READY_LINE = /\blistening on\b/;

/** The status of a GET on a fresh connection, or null when nothing answers. */
function statusOf(url: string): Promise<number | null> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false, timeout: 2000 }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? null));
      res.once('error', () => resolve(null));
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(null));
    req.end();
  });
}

export interface ProcessOptions {
  /** A short name for messages. */
  name: string;
  /** The program (node by default) and its arguments. */
  command?: string;
  args: string[];
  /** The whole environment besides PATH, HOME and PORT: nothing of the caller's shell leaks in. */
  env: Record<string, string>;
  cwd?: string;
  /** Listen on this port (a restarted server keeps its address); a free one by default. */
  port?: number;
  /**
   * Its own process group (npm and the service under it): stop() and kill() reach the group,
   * and `gone()` waits for all of it.
   */
  group?: boolean;
}

/** A server in a child process, listening on 127.0.0.1. */
export class ServerProcess {
  readonly url: string;
  /** The output, oldest lines dropped when long. */
  readonly logs: string[] = [];
  exit: Exit | null = null;
  readonly exited: Promise<Exit>;
  /** Milliseconds from spawn to the first 200 of ready(). */
  startMs = 0;
  readonly #spawnedAt = performance.now();
  readonly #lineWatchers = new Set<(line: string) => void>();
  readonly #exitWatchers = new Set<() => void>();

  protected constructor(
    readonly name: string,
    readonly port: number,
    readonly child: ChildProcess,
    private readonly group: boolean,
  ) {
    this.url = `http://127.0.0.1:${port}`;
    running.add(this);
    // Whole lines of each stream, however its chunks fall.
    for (const stream of [child.stdout, child.stderr]) {
      let partial = '';
      stream?.on('data', (chunk: Buffer) => {
        const lines = (partial + chunk.toString('utf8')).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) this.#keep(line);
      });
      stream?.on('end', () => this.#keep(partial));
    }
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        if (!group) running.delete(this);
        this.exit = { code, signal };
        for (const watch of this.#exitWatchers) watch();
        resolve(this.exit);
      });
    });
  }

  /** Spawns the process; it may not be listening yet (see ready()). */
  static async spawnProcess(opts: ProcessOptions): Promise<ServerProcess> {
    const port = opts.port ?? (await freePort());
    return new ServerProcess(opts.name, port, launch(opts, port), opts.group ?? false);
  }

  #keep(line: string): void {
    if (line.trim() === '') return;
    this.logs.push(line);
    if (this.logs.length > 2000) this.logs.splice(0, 1000);
    for (const watch of this.#lineWatchers) watch(line);
  }

  get alive(): boolean {
    return this.exit === null;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /**
   * Waits until the process says it listens (a line matching `READY_LINE`: the service's
   * "listening on", the bench's ceilings' too), then until `path` answers 200, and notes the
   * time since spawn; fails when the process exits first or `timeoutMs` passes.
   */
  async ready(timeoutMs = 60_000, path = '/healthz'): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    await this.line(READY_LINE, timeoutMs);
    for (;;) {
      if ((await statusOf(this.url + path)) === 200) {
        this.startMs = performance.now() - this.#spawnedAt;
        return;
      }
      if (this.exit) throw new Error(`${this.name} exited before it was ready: ${this.describeExit()}`);
      if (performance.now() > deadline) {
        throw new Error(`${this.name} was not ready after ${timeoutMs} ms; last output: ${this.tail(3)}`);
      }
      // Listening, but the database did not answer the check: it is reconnecting.
      await sleep(50);
    }
  }

  /** Resolves with the first output line matching `pattern`; fails on exit or after `timeoutMs`. */
  line(pattern: RegExp, timeoutMs: number): Promise<string> {
    const seen = this.logs.find((l) => pattern.test(l));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        done();
        reject(
          new Error(
            `${this.name}: no line matching ${pattern} within ${timeoutMs} ms; last output: ${this.tail(3)}`,
          ),
        );
      }, timeoutMs);
      const onLine = (line: string) => {
        if (!pattern.test(line)) return;
        done();
        resolve(line);
      };
      const onExit = () => {
        done();
        reject(new Error(`${this.name} exited before it was ready: ${this.describeExit()}`));
      };
      const done = () => {
        clearTimeout(timer);
        this.#lineWatchers.delete(onLine);
        this.#exitWatchers.delete(onExit);
      };
      this.#lineWatchers.add(onLine);
      this.#exitWatchers.add(onExit);
      if (this.exit) onExit();
    });
  }

  /** Sends a signal to the process, or to its whole group. */
  kill(signal: NodeJS.Signals): void {
    try {
      if (this.group) process.kill(-this.pid, signal);
      else if (this.alive) this.child.kill(signal);
    } catch {
      // already gone
    }
  }

  /** kill -9, and wait until the process (its group) is gone. */
  async kill9(): Promise<Exit> {
    this.kill('SIGKILL');
    await this.gone();
    return this.exited;
  }

  /** SIGTERM (a clean shutdown), SIGKILL after 10 s; resolves once everything has ended. */
  async stop(): Promise<Exit> {
    if (!this.group && !this.alive) return this.exited;
    this.kill('SIGTERM');
    const timer = setTimeout(() => this.kill('SIGKILL'), 10_000);
    await this.gone();
    clearTimeout(timer);
    return this.exited;
  }

  /**
   * Resolves once the process has ended, and with `group` every process of its group: the
   * event a stop waits for. Fails after `timeoutMs`.
   */
  async gone(timeoutMs = 30_000): Promise<void> {
    await this.exited;
    if (!this.group) return;
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      try {
        process.kill(-this.pid, 0);
      } catch {
        running.delete(this);
        return;
      }
      if (performance.now() > deadline) throw new Error(`${this.name}: its process group is still there`);
      await sleep(20);
    }
  }

  /** Peak resident memory so far (VmHWM), MiB; null without /proc. */
  peakRssMiB(): number | null {
    return memoryMiB(this.pid, 'VmHWM');
  }

  /** Resident memory now (VmRSS), MiB; null without /proc. */
  rssMiB(): number | null {
    return memoryMiB(this.pid, 'VmRSS');
  }

  /** Resident memory now and at its peak, for a log line: "RSS 120 MiB (peak 256 MiB)". */
  memoryNote(): string {
    const now = memoryMiB(this.pid, 'VmRSS');
    const peak = this.peakRssMiB();
    return now === null || peak === null ? '' : `RSS ${now.toFixed(0)} MiB (peak ${peak.toFixed(0)} MiB)`;
  }

  /** Output lines matching a pattern. */
  grep(pattern: RegExp): string[] {
    return this.logs.filter((line) => pattern.test(line));
  }

  /** Warnings and errors of the service's log (pino levels 40 and up), shortened. */
  warnings(): string[] {
    return this.grep(/"level":[4-6]0/).map((line) => {
      try {
        const { msg, err } = JSON.parse(line) as { msg?: string; err?: { message?: string; code?: string } };
        return [msg, err?.code, err?.message].filter(Boolean).join(': ').slice(0, 200);
      } catch {
        return line.slice(0, 200);
      }
    });
  }

  /** The last lines of output, on one line, for a verdict. */
  tail(lines: number): string {
    return this.logs.slice(-lines).join(' | ').slice(0, 600) || '(no output)';
  }

  describeExit(): string {
    if (!this.exit) return 'running';
    const how = this.exit.signal ? `signal ${this.exit.signal}` : `exit code ${this.exit.code}`;
    // A crash's first telling line (an assertion, an error) says more than the stack under it.
    const cause = this.logs.find((line) => /Assertion failed|Error\b|failed/.test(line))?.trim();
    const tail = this.tail(3);
    return `${how}; ${cause && !tail.includes(cause) ? `${cause.slice(0, 200)} … ` : ''}last output: ${tail}`;
  }
}

function launch(opts: ProcessOptions, port: number): ChildProcess {
  return spawn(opts.command ?? process.execPath, opts.args, {
    cwd: opts.cwd ?? ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...opts.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: opts.group ?? false,
  });
}

export interface ServiceOptions {
  databaseUrl: string;
  /** More environment (RATE_LIMIT, LOG_LEVEL, ...), over the settings below. */
  env?: Record<string, string>;
  /** Listen on this port (a restarted server keeps its address); a free one by default. */
  port?: number;
  /** A short name for messages. */
  name?: string;
  /** The working directory: the project by default (a `.env` there would count). */
  cwd?: string;
  /**
   * `node` (the default): node with `npm start`'s arguments and environment defaults;
   * `npm start`: the script itself in `cwd`, in its own process group, as an operator runs it.
   */
  via?: 'node' | 'npm start';
  /** The build or the source (see `entry`); `npm start` always runs the build. */
  from?: 'dist' | 'src';
  /** More node arguments (the bench's `--cpu-prof`). */
  nodeArgs?: string[];
  /**
   * The tests' and the soak's settings (true by default): a known administrator password and
   * session secret, the development sign-in, no live sync, no rate limits, warnings only.
   * false: only `env`, as an operator starting it at the defaults (the bench measures those).
   */
  testSettings?: boolean;
  /** Started under `ulimit -n` of this many open files (soft and hard: node cannot raise it). */
  openFiles?: number;
}

/** The real service as a child process. */
export class Service extends ServerProcess {
  /** Spawns the service; it may still be waiting for its database (see ready()). */
  static async spawn(opts: ServiceOptions): Promise<Service> {
    const port = opts.port ?? (await freePort());
    const env: Record<string, string> = {
      HOST: '127.0.0.1',
      BASE_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: opts.databaseUrl,
      ...(opts.testSettings === false
        ? {}
        : {
            ADMIN_PASSWORD,
            SESSION_SECRET,
            DEV_PROVIDERS: 'true',
            // The soak measures the service's own writes; live sync would add its own.
            LIVE_SYNC_SECONDS: '0',
            RATE_LIMIT: 'off',
            LOG_LEVEL: 'warn',
          }),
      ...opts.env,
    };
    const name = opts.name ?? `service:${port}`;
    const how: ProcessOptions =
      opts.via === 'npm start'
        ? { name, command: 'npm', args: ['start', '--silent'], env, group: true }
        : {
            name,
            args: withExtra(nodeArgs('main', opts.from), opts.nodeArgs ?? []),
            // npm start's defaults, which the environment may override as the operator's would.
            env: { ...SERVICE_ENV, ...env },
          };
    const limited: ProcessOptions =
      opts.openFiles === undefined
        ? how
        : {
            ...how,
            command: 'sh',
            args: [
              '-c',
              `ulimit -n ${opts.openFiles} && exec "$@"`,
              'sh',
              how.command ?? process.execPath,
              ...how.args,
            ],
          };
    return new Service(name, port, launch({ ...limited, cwd: opts.cwd }, port), how.group ?? false);
  }

  /** Spawns the service and waits until it answers /healthz with 200. */
  static async start(opts: ServiceOptions, timeoutMs = 60_000): Promise<Service> {
    for (let attempt = 1; ; attempt++) {
      const service = await Service.spawn(opts);
      try {
        await service.ready(timeoutMs);
        return service;
      } catch (err) {
        await service.kill9();
        // A port chosen here can be taken before the child listens (see freePort): another.
        const taken = service.grep(/EADDRINUSE/).length > 0;
        if (!(taken && opts.port === undefined && attempt < 3)) throw err;
      }
    }
  }
}

/** The node arguments with more options before the script (the last argument). */
function withExtra(args: string[], extra: string[]): string[] {
  return extra.length === 0 ? args : [...args.slice(0, -1), ...extra, args.at(-1)!];
}
