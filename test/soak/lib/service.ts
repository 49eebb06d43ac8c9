import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freePort } from './net.ts';
import { SERVICE_ENV, SERVICE_NODE_ARGS } from '../../../src/node-args.ts';

/** The repository's root directory. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export const ADMIN_PASSWORD = 'soak administrator password';
const SESSION_SECRET = 'soak-session-secret-0123456789abcdef';

/** Whether dist/ holds a build of the current source: no file under src/ is newer than it. */
function builtFresh(): boolean {
  const built = join(ROOT, 'dist/src/main.js');
  if (!existsSync(built)) return false;
  const builtAt = statSync(built).mtimeMs;
  return readdirSync(join(ROOT, 'src'), { recursive: true }).every(
    (f) => statSync(join(ROOT, 'src', String(f))).mtimeMs <= builtAt,
  );
}

/**
 * How the service is started: `dist` runs the build (`node dist/src/main.js`, what `npm start`
 * runs; `npm run soak` and `npm test` build first), `src` runs the TypeScript source through
 * tsx. SOAK_ENTRY chooses; by default the build when it is up to date, else the source, so a
 * stale build is never what gets tested.
 */
export const entry: 'dist' | 'src' =
  process.env.SOAK_ENTRY === 'dist' || process.env.SOAK_ENTRY === 'src'
    ? process.env.SOAK_ENTRY
    : builtFresh()
      ? 'dist'
      : 'src';

/** The command line that runs a script of the project: built JavaScript or TypeScript source. */
export function nodeArgs(script: 'main' | 'cli'): string[] {
  const file = script === 'main' ? 'src/main' : 'src/cli/main';
  return entry === 'dist'
    ? [...SERVICE_NODE_ARGS, join(ROOT, 'dist', `${file}.js`)]
    : [...SERVICE_NODE_ARGS, '--import', 'tsx', join(ROOT, `${file}.ts`)];
}

export interface ServiceOptions {
  databaseUrl: string;
  /** Extra environment (RATE_LIMIT, LOG_LEVEL, ...). */
  env?: Record<string, string>;
  /** Listen on this port (a restarted server keeps its address); a free one by default. */
  port?: number;
  /** A short name for messages. */
  name?: string;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const running = new Set<ChildProcess>();
// A scenario that dies must not leave servers behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** The real service as a child process: `node dist/src/main.js` (or the source through tsx). */
export class Service {
  readonly url: string;
  /** The service's output, last lines first dropped when long. */
  readonly logs: string[] = [];
  exit: Exit | null = null;
  readonly exited: Promise<Exit>;

  private constructor(
    readonly name: string,
    readonly port: number,
    readonly child: ChildProcess,
  ) {
    this.url = `http://127.0.0.1:${port}`;
    running.add(child);
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() === '') continue;
        this.logs.push(line);
        if (this.logs.length > 2000) this.logs.splice(0, 1000);
      }
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        running.delete(child);
        this.exit = { code, signal };
        resolve(this.exit);
      });
    });
  }

  /** Spawns the service; it may still be waiting for its database (see ready()). */
  static async spawn(opts: ServiceOptions): Promise<Service> {
    const port = opts.port ?? (await freePort());
    const child = spawn(process.execPath, nodeArgs('main'), {
      cwd: ROOT,
      env: {
        ...SERVICE_ENV,
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        HOST: '127.0.0.1',
        PORT: String(port),
        BASE_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: opts.databaseUrl,
        ADMIN_PASSWORD,
        SESSION_SECRET,
        DEV_PROVIDERS: 'true',
        // The soak measures the service's own writes; live sync would add its own.
        LIVE_SYNC_SECONDS: '0',
        RATE_LIMIT: 'off',
        LOG_LEVEL: 'warn',
        ...opts.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new Service(opts.name ?? `service:${port}`, port, child);
  }

  /** Spawns the service and waits until it answers /healthz with 200. */
  static async start(opts: ServiceOptions, timeoutMs = 60_000): Promise<Service> {
    const service = await Service.spawn(opts);
    try {
      await service.ready(timeoutMs);
    } catch (err) {
      service.child.kill('SIGKILL');
      await service.exited;
      throw err;
    }
    return service;
  }

  get alive(): boolean {
    return this.exit === null;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Waits until /healthz answers 200; fails when the process exits first or time runs out. */
  async ready(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.exit) throw new Error(`${this.name} exited before it was ready: ${this.describeExit()}`);
      try {
        const res = await fetch(`${this.url}/healthz`, { signal: AbortSignal.timeout(2000) });
        await res.arrayBuffer();
        if (res.status === 200) return;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    throw new Error(`${this.name} was not ready after ${timeoutMs} ms; last output: ${this.tail(3)}`);
  }

  /** kill -9, and wait until the process is gone. */
  async kill9(): Promise<Exit> {
    if (this.alive) this.child.kill('SIGKILL');
    return this.exited;
  }

  /** SIGTERM (a clean shutdown), SIGKILL after 10 s. */
  async stop(): Promise<Exit> {
    if (!this.alive) return this.exited;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    const exit = await this.exited;
    clearTimeout(timer);
    return exit;
  }

  /** Peak resident memory of the process in MiB (VmHWM of /proc/<pid>/status). */
  peakRssMiB(): number {
    const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
    if (!kb) throw new Error(`no VmHWM in /proc/${this.pid}/status`);
    return Number(kb) / 1024;
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
