/**
 * What the fifth wave's background work (a go-live's 10,000 push messages, a 10,000-address
 * digest) must leave of the service: the public list and comment posting measured while the
 * work runs, judged two ways. The issues' own measure: against the same service's list and
 * posting without the work, loaded just before it starts (≥ 0.9x: the work costs visitors at
 * most a tenth). And each row's usual target kept while it runs: against its ceiling (the
 * list's bytes precomputed, sent as a Buffer as the service sends them; one INSERT + fsync
 * per request). The ceilings and the service's
 * loads without the work alternate before the work starts, so that the work slows neither;
 * the service's loads then run back to back while it goes on, and the rows say how many of
 * them ended before the work did. The service's loads are made the same way with and without
 * the work (loadBusy, posting then the list at once), so that the list always follows a
 * posting load that made it stale: the two differ by the work alone. Also the child
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

/** Connections of the loads beside the work: the list's and posting's usual ones. */
export async function besideRows(
  ctx: Context,
  opts: {
    /** Said after each row's path: ", <what runs>". */
    beside: string;
    dir: string;
    streamerId: number;
    ceilingDatabase: (name: string) => CeilingOptions;
    work: Work;
  },
): Promise<Row[]> {
  const answer = await probeOk(ctx, '/api/streamers');
  const file = join(opts.dir, 'list-beside-work.json');
  writeFileSync(file, answer.body);
  const list = { path: '/api/streamers', expect: [200] };
  const post = {
    path: '/api/comments',
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ streamer_id: opts.streamerId, body: 'A benchmark comment, posted meanwhile.' }),
    expect: [201],
  };
  const listCeiling: Run[] = [];
  const postCeiling: Run[] = [];
  const listAlone: Run[] = [];
  const postAlone: Run[] = [];
  for (let round = 0; round < ctx.load.rounds; round++) {
    listCeiling.push(
      await loadCeiling(ctx, 'static', { file, etag: etagOf(answer.body), buffer: true }, list),
    );
    postCeiling.push(await loadCeiling(ctx, 'insert', opts.ceilingDatabase('beside'), post));
    await waitIdle(ctx.service);
    postAlone.push(await loadBusy(ctx, post));
    listAlone.push(await loadBusy(ctx, list));
  }
  await opts.work.start();
  const listRuns: Run[] = [];
  const postRuns: Run[] = [];
  let after = 0;
  for (let round = 0; round < ctx.load.rounds; round++) {
    if (round > 0 && !(await opts.work.running())) break;
    postRuns.push(await loadBusy(ctx, post));
    listRuns.push(await loadBusy(ctx, list));
    if (!(await opts.work.running())) after++;
  }
  const rows: Row[] = [];
  for (const [name, service, alone, target, ceiling] of [
    ['GET /api/streamers', listRuns, listAlone, '>= 0.9x its bytes', listCeiling],
    ['POST /api/comments', postRuns, postAlone, '>= 0.9x INSERT+fsync', postCeiling],
  ] as const) {
    const s = combine([...service]);
    const path = `${name}${opts.beside}`;
    const without = combine([...alone]);
    const c = combine([...ceiling]);
    ctx.log(
      `${path}: service ${figures(s, [...service])}; without the work ${figures(without, [...alone])}; ` +
        `ceiling ${figures(c, [...ceiling])}`,
    );
    for (const row of [
      rowOf(
        ctx,
        { path: `${path}, vs without it`, service: s, ceiling: without },
        { target: '>= 0.9x without it', minRatio: 0.9 },
      ),
      rowOf(ctx, { path, service: s, ceiling: c }, { target, minRatio: 0.9 }),
    ]) {
      if (after > 0) row.notes.push(`the work ended during the last of ${service.length} service loads`);
      rows.push(row);
    }
  }
  return rows;
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
