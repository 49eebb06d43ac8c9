/**
 * What the fifth wave's background work (a go-live's 10,000 push messages, a 10,000-address
 * digest) must leave of the service: the public list and comment posting measured while the
 * work runs, judged two ways. The issues' own measure: against the same service's list and
 * posting without the work, loaded before it starts and again once it is over (≥ 0.9x: the
 * work costs visitors at most a tenth). And each row's usual target kept while it runs:
 * against its ceiling (the list's bytes precomputed, sent as a Buffer as the service sends
 * them; one INSERT + fsync per request). The service's loads are made the same way with and
 * without the work (loadBusy, posting then the list at once), so that the list always follows
 * a posting load that made it stale: the two differ by the work alone. Also the child
 * processes these rows fork.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileChild } from './build.ts';
import { etagOf, type CeilingOptions } from './ceilings.ts';
import {
  combine,
  type Context,
  figures,
  type Load,
  loadCeiling,
  probeOk,
  rowOf,
  type Run,
} from './compare.ts';
import { waitIdle } from './idle.ts';
import { measured, runLoad } from './load.ts';
import { DASH, type Row } from './report.ts';

/** A bench program forked with IPC: answers one message per question. */
export class Forked<Q, A> {
  readonly #child: ChildProcess;
  constructor(name: string, env: Record<string, string> = {}) {
    this.#child = fork(compileChild(name), [], {
      execArgv: [],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
  }
  /** The first message the child sends by itself (its port). */
  first<T>(): Promise<T> {
    return new Promise((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`child exited (${code})`));
      this.#child.once('exit', exited);
      this.#child.once('message', (m) => {
        this.#child.off('exit', exited);
        resolve(m as T);
      });
    });
  }
  ask(question: Q): Promise<A> {
    const answer = this.first<A>();
    this.#child.send(question as object);
    return answer;
  }
  stop(): void {
    this.#child.kill();
  }
}

export interface Work {
  /** Starts the work (a go-live, the digest's hour). */
  start(): Promise<void>;
  /** Whether it is still going on. */
  running(): Promise<boolean>;
}

/**
 * A warm-up and the measured load on the service, without waiting for it to be idle between
 * them (loadOn does): it is not idle while the work goes on.
 */
async function loadBusy(ctx: Context, load: Load): Promise<Run> {
  const once = (seconds: number) =>
    runLoad({
      url: ctx.service.url + load.path,
      method: load.method ?? 'GET',
      headers: load.headers ?? {},
      ...(load.body === undefined ? {} : { body: load.body }),
      connections: load.connections ?? ctx.load.connections,
      seconds,
      timeoutSeconds: ctx.load.timeoutSeconds,
    });
  const warmup = await once(ctx.load.warmupSeconds);
  const summary = await once(ctx.load.seconds);
  return { ...measured(summary, load.expect), warmupCounts: warmup.statusCounts };
}

/** What the rows beside a work say and load. */
export interface BesideOptions {
  /** Said after each row's path: ", <what runs>". */
  beside: string;
  dir: string;
  streamerId: number;
  ceilingDatabase: (name: string) => CeilingOptions;
}

/** The loads of one phase: the list's and posting's runs. */
interface Runs {
  list: Run[];
  post: Run[];
}

const noRuns = (): Runs => ({ list: [], post: [] });

/**
 * The public list and comment posting measured beside a work, in three phases. Before the work
 * starts and again once it is over, rounds of the ceilings alternate with rounds of the service
 * without the work (so that the work slows neither); while it goes on, the service's loads run
 * back to back, and the rows say how many of them ended before the work did. The runs beside
 * the work are judged against the runs before and after it together: a drift of the machine
 * over the minutes the rows take (its disk's fsync, a neighbour) then weighs on both sides
 * alike instead of on the work. (Measured before it only, posting beside the digest read 0.70x
 * to 1.41x of itself without it between runs of one build: docs/benchmarks.md, stop 84.)
 */
export class Beside {
  readonly #ceiling = noRuns();
  readonly #alone = noRuns();
  readonly #during = noRuns();
  readonly #list = { path: '/api/streamers', expect: [200] };
  readonly #post: Load;
  #file = '';
  #etag = '';
  /** Loads beside the work that ended after it. */
  #endedAfter = 0;
  #afterRounds = 0;

  readonly ctx: Context;
  readonly opts: BesideOptions;

  constructor(ctx: Context, opts: BesideOptions) {
    this.ctx = ctx;
    this.opts = opts;
    this.#post = {
      path: '/api/comments',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ streamer_id: opts.streamerId, body: 'A benchmark comment, posted meanwhile.' }),
      expect: [201],
    };
  }

  /** Rounds of the ceilings and of the service without the work, on `ctx`'s service. */
  async #without(ctx: Context): Promise<void> {
    for (let round = 0; round < ctx.load.rounds; round++) {
      this.#ceiling.list.push(
        await loadCeiling(ctx, 'static', { file: this.#file, etag: this.#etag, buffer: true }, this.#list),
      );
      this.#ceiling.post.push(
        await loadCeiling(ctx, 'insert', this.opts.ceilingDatabase('beside'), this.#post),
      );
      await waitIdle(ctx.service);
      this.#alone.post.push(await loadBusy(ctx, this.#post));
      this.#alone.list.push(await loadBusy(ctx, this.#list));
    }
  }

  /** Before the work: the list's bytes for its ceiling, then the rounds without it. */
  async before(): Promise<void> {
    const answer = await probeOk(this.ctx, '/api/streamers');
    this.#file = join(this.opts.dir, 'list-beside-work.json');
    this.#etag = etagOf(answer.body);
    writeFileSync(this.#file, answer.body);
    await this.#without(this.ctx);
  }

  /** Starts the work and loads the service beside it while it goes on. */
  async during(work: Work): Promise<void> {
    await work.start();
    for (let round = 0; round < this.ctx.load.rounds; round++) {
      if (round > 0 && !(await work.running())) break;
      this.#during.post.push(await loadBusy(this.ctx, this.#post));
      this.#during.list.push(await loadBusy(this.ctx, this.#list));
      if (!(await work.running())) this.#endedAfter++;
    }
  }

  /**
   * Once the work is over: the rounds without it again, on `ctx`'s service (the same one, or
   * the instance started again after it was killed in the middle of the work).
   */
  async after(ctx: Context): Promise<void> {
    await waitIdle(ctx.service);
    await this.#without(ctx);
    this.#afterRounds = ctx.load.rounds;
  }

  /** Each load beside the work against itself without it, and against its ceiling. */
  rows(): Row[] {
    const { ctx } = this;
    const rows: Row[] = [];
    const split = (runs: Run[]) => {
      const before = runs.length - this.#afterRounds;
      return this.#afterRounds > 0
        ? `before it ${figures(combine(runs.slice(0, before)), runs.slice(0, before))}, ` +
            `after it ${figures(combine(runs.slice(before)), runs.slice(before))}`
        : figures(combine(runs), runs);
    };
    for (const [name, key, target] of [
      ['GET /api/streamers', 'list', '>= 0.9x its bytes'],
      ['POST /api/comments', 'post', '>= 0.9x INSERT+fsync'],
    ] as const) {
      const service = combine(this.#during[key]);
      const without = combine(this.#alone[key]);
      const ceiling = combine(this.#ceiling[key]);
      const path = `${name}${this.opts.beside}`;
      ctx.log(
        `${path}: service ${figures(service, this.#during[key])}; without the work ${split(this.#alone[key])}; ` +
          `ceiling ${split(this.#ceiling[key])}`,
      );
      for (const row of [
        rowOf(
          ctx,
          { path: `${path}, vs without it`, service, ceiling: without },
          { target: '>= 0.9x without it', minRatio: 0.9 },
        ),
        rowOf(ctx, { path, service, ceiling }, { target, minRatio: 0.9 }),
      ]) {
        if (this.#endedAfter > 0)
          row.notes.push(`the work ended during the last of ${this.#during[key].length} service loads`);
        if (this.#afterRounds === 0) row.notes.push('measured without the work before it only');
        rows.push(row);
      }
    }
    return rows;
  }
}

/** A row judged by a figure of its own (no ceiling). */
export function fixedRow(
  ctx: Context,
  path: string,
  service: string,
  target: string,
  ok: boolean,
  notes: string[] = [],
): Row {
  return {
    path,
    service,
    serviceP99: DASH,
    ceiling: DASH,
    ceilingP99: DASH,
    ratio: DASH,
    target,
    ok,
    enforced: ctx.enforce,
    notes,
  };
}
