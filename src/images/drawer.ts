import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleReason } from '../../scripts/build-freshness.js';
import type { DrawRequest } from './draw.ts';

/** The drawing process's built module, from the project's folder. */
const DRAW_PROCESS = 'dist/src/images/draw-process.js';

/**
 * A quiet drawing process exits after this long; the next image starts it again (about a
 * quarter of a second: loading fontkit, the fonts and resvg).
 */
const IDLE_MS = 10 * 60_000;
/** A drawing that takes longer than this failed (the process is replaced). */
const DRAW_TIMEOUT_MS = 15_000;
/**
 * A drawing process that has not loaded its fonts and resvg by then hangs (it is replaced). Apart
 * from DRAW_TIMEOUT_MS: a start on a busy machine is slow, and its first drawings must not fail
 * for that.
 */
const START_TIMEOUT_MS = 60_000;

/**
 * The drawing process's entry. Built (dist/): the built module. From the TypeScript source
 * (tests, `npm run dev`): the built module too while the build is current by `npm start`'s
 * rule (scripts/build-freshness.js: its stamp newer than every source), else the source through
 * tsx, which compiles it first (seconds at each start on a busy machine, where every test app
 * that shows a badge started one).
 */
export function drawProcessEntry(here: string): { file: string; execArgv: string[]; cwd: string } {
  let root = dirname(here);
  while (!existsSync(join(root, 'package.json')) && dirname(root) !== root) root = dirname(root);
  const built = { file: join(root, DRAW_PROCESS), execArgv: [], cwd: root };
  if (!here.endsWith('.ts') || staleReason(root, DRAW_PROCESS) === null) return built;
  return { file: join(root, 'src/images/draw-process.ts'), execArgv: ['--import', 'tsx'], cwd: root };
}

interface Pending {
  resolve: (bytes: Buffer) => void;
  reject: (err: Error) => void;
  /** Set when the request is sent: a drawing's time counts from there, not from the start. */
  timer?: NodeJS.Timeout;
}

/**
 * Draws images in a child process of their own, started at the first image and ended after ten
 * quiet minutes: fontkit, the fonts and resvg's pixel buffers (native memory that V8 does not
 * count, so it is collected late) never weigh on the service's memory.
 */
export class Drawer {
  #child: ChildProcess | null = null;
  /** Requests waiting for the process to say it is ready. */
  #waiting: { id: number; request: DrawRequest }[] | null = null;
  #next = 1;
  readonly #pending = new Map<number, Pending>();
  #idle: NodeJS.Timeout | undefined;

  draw(request: DrawRequest): Promise<Buffer> {
    const child = this.#start();
    const id = this.#next++;
    clearTimeout(this.#idle);
    return new Promise<Buffer>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      if (this.#waiting) this.#waiting.push({ id, request });
      else this.#send(child, id, request);
    });
  }

  #send(child: ChildProcess, id: number, request: DrawRequest): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    pending.timer = setTimeout(() => {
      this.#fail(new Error(`drawing took over ${DRAW_TIMEOUT_MS} ms`));
      child.kill('SIGKILL');
    }, DRAW_TIMEOUT_MS);
    child.send({ id, request });
  }

  stop(): void {
    clearTimeout(this.#idle);
    this.#child?.kill();
    this.#child = null;
  }

  #start(): ChildProcess {
    if (this.#child) return this.#child;
    const { file, execArgv, cwd } = drawProcessEntry(fileURLToPath(import.meta.url));
    const child = fork(file, [], {
      execArgv,
      cwd,
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const waiting: { id: number; request: DrawRequest }[] = [];
    this.#waiting = waiting;
    const starting = setTimeout(() => {
      this.#fail(new Error(`the drawing process did not start within ${START_TIMEOUT_MS} ms`));
      child.kill('SIGKILL');
    }, START_TIMEOUT_MS);
    child.on('message', (message: { ready?: true; id: number; bytes?: Uint8Array; error?: string }) => {
      if (message.ready) {
        clearTimeout(starting);
        if (this.#waiting === waiting) this.#waiting = null;
        for (const w of waiting) this.#send(child, w.id, w.request);
        return;
      }
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      clearTimeout(pending.timer);
      if (message.bytes)
        pending.resolve(
          Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength),
        );
      else pending.reject(new Error(message.error ?? 'drawing failed'));
      if (this.#pending.size === 0) this.#rest();
    });
    child.on('exit', () => {
      clearTimeout(starting);
      if (this.#child === child) {
        this.#child = null;
        this.#waiting = null;
      }
      this.#fail(new Error('the drawing process exited'));
    });
    child.on('error', (err) => this.#fail(err));
    child.unref();
    child.channel?.unref();
    this.#child = child;
    return child;
  }

  /** After ten quiet minutes the process ends (its memory goes back to the system). */
  #rest(): void {
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => this.stop(), IDLE_MS);
    this.#idle.unref();
  }

  #fail(err: Error): void {
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(err);
      this.#pending.delete(id);
    }
  }
}
