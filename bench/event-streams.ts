/**
 * Issue 27's benchmark of live updates: every event stream one instance takes at its defaults
 * (issue 27 asked for 2,000; issue 45 item 4 holds an instance to half its connection limit,
 * 1,024), held by a process of their own (stream-holder.ts) from many local addresses in
 * several networks (the service takes 20 streams an address, 100 a network); one new comment must
 * reach every stream (p99 of arrival, from the POST's start, under 500 ms) and the service's
 * resident memory must grow by less than 60 MiB over its idle figure; then the public list
 * and comment posting measured again while the streams stay open.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileChild } from './build.ts';
import { etagOf, type CeilingOptions } from './ceilings.ts';
import { compare, type Context, missedRow, probeOk, rowOf, selected } from './compare.ts';
import { callJson, closeIdle } from './http.ts';
import { waitIdle } from './idle.ts';
import type { HolderAnswer, HolderRequest } from './protocol.ts';
import { DASH, ms, type Row } from './report.ts';
import { CONNECTION_POLICY } from '../src/http/connections.ts';
import { STREAM_LIMITS, streamsWithin } from '../src/events/streams.ts';
import { type Written, writePaths } from './write-paths.ts';

/** The streams one instance takes at its defaults (events/streams.ts `streamsWithin`). */
export const STREAMS = streamsWithin(CONNECTION_POLICY.total);
const COMMENTS = 3;
/**
 * Connections of the loads run beside the streams: the service takes 2,048 connections in all
 * at its defaults (http/connections.ts), half of them streams, a few this process's own
 * requests; the ceiling gets the same load.
 */
const CONNECTIONS_BESIDE = 40;
const OPEN = `${STREAMS.toLocaleString('en-US')} event streams open`;

export interface StreamSetup {
  dir: string;
  /** The streamer whose page the streams follow. */
  watchedId: number;
  /** The streamer that comment posting writes to beside the streams. */
  postedId: number;
  ceilingDatabase: (name: string) => CeilingOptions;
}

class Holder {
  readonly #child: ChildProcess;
  constructor() {
    this.#child = fork(compileChild('stream-holder'), [], {
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
  }
  ask<T extends HolderAnswer>(request: HolderRequest): Promise<T> {
    return new Promise((resolve, reject) => {
      this.#child.once('message', (answer) => resolve(answer as T));
      this.#child.once('exit', (code) => reject(new Error(`stream holder exited (${code})`)));
      this.#child.send(request);
    });
  }
  stop(): void {
    this.#child.kill();
  }
}

const at = () => performance.timeOrigin + performance.now();
const p99Of = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1] ?? 0;

/** Posts COMMENTS comments on the watched streamer, one at a time; the delays of their arrivals. */
async function fanOut(ctx: Context, holder: Holder, watchedId: number) {
  const delays: number[] = [];
  let missing = 0;
  for (let i = 0; i < COMMENTS; i++) {
    const sent = at();
    const { json } = await callJson<{ id: number }>(`${ctx.service.url}/api/comments`, {
      method: 'POST',
      body: JSON.stringify({ streamer_id: watchedId, body: `Live benchmark comment ${i + 1}.` }),
      expect: 201,
    });
    const got = await holder.ask<{ times: number[]; streams: number }>({
      collect: json.id,
      timeoutMs: 10_000,
    });
    delays.push(...got.times.map((t) => t - sent));
    missing += got.streams - got.times.length;
    await waitIdle(ctx.service);
  }
  return { delays, missing };
}

function fixedRow(
  ctx: Context,
  path: string,
  service: string,
  p99: string,
  target: string,
  ok: boolean,
  notes: string[],
): Row {
  return {
    path,
    service,
    serviceP99: p99,
    ceiling: DASH,
    ceilingP99: DASH,
    ratio: DASH,
    target,
    ok,
    enforced: ctx.enforce,
    notes,
  };
}

export async function eventStreamPaths(
  ctx: Context,
  setup: StreamSetup,
): Promise<{ rows: Row[]; written?: Written; beside: string }> {
  const rows: Row[] = [];
  const fanPath = `${OPEN}: a new comment reaches each`;
  const rssPath = `${OPEN}: service RSS over idle`;
  // The seeding's kept-alive connections would take places the streams and loads need.
  closeIdle();
  await waitIdle(ctx.service);
  const idle = ctx.service.rssMiB();
  const holder = new Holder();
  try {
    const url = `${ctx.service.url}/api/events?streamer_id=${setup.watchedId}`;
    const opened = await holder.ask<{ opened: number; statuses: Record<string, number> }>({
      open: {
        url,
        count: STREAMS,
        perAddress: STREAM_LIMITS.perAddress,
        perNetwork: STREAM_LIMITS.perNetwork,
      },
    });
    ctx.log(`event streams: ${opened.opened} open (answers ${JSON.stringify(opened.statuses)})`);
    if (opened.opened < STREAMS) {
      const problem = `only ${opened.opened} of ${STREAMS} streams opened: ${JSON.stringify(opened.statuses)}`;
      return { rows: [missedRow(ctx, fanPath, 'p99 < 500 ms', problem)], beside: '' };
    }
    const { delays, missing } = await fanOut(ctx, holder, setup.watchedId);
    const p99 = p99Of(delays);
    const rss = ctx.service.rssMiB();
    const grown = idle === null || rss === null ? null : rss - idle;
    ctx.log(
      `event streams: ${COMMENTS} comments, arrival min ${ms(Math.min(...delays))}, p50 ${ms(delays.sort((a, b) => a - b)[delays.length >> 1] ?? 0)}, ` +
        `p99 ${ms(p99)}, max ${ms(Math.max(...delays))}; RSS idle ${idle?.toFixed(0)} MiB, with the streams ${rss?.toFixed(0)} MiB`,
    );
    const notes = missing > 0 ? [`${missing} arrivals missing`] : [];
    rows.push(
      fixedRow(
        ctx,
        fanPath,
        `${delays.length} arrivals`,
        ms(p99),
        'p99 < 500 ms',
        missing === 0 && p99 < 500,
        notes,
      ),
    );
    rows.push(
      fixedRow(
        ctx,
        rssPath,
        grown === null ? 'n/a (no /proc)' : `+${grown.toFixed(0)} MiB`,
        DASH,
        '< 60 MiB',
        grown !== null && grown < 60,
        [],
      ),
    );
    const beside = { ...ctx, load: { ...ctx.load, connections: CONNECTIONS_BESIDE } };
    const listPath = `GET /api/streamers, ${OPEN}`;
    if (selected(ctx.only, listPath) || selected(ctx.only, 'event streams')) {
      const answer = await probeOk(ctx, '/api/streamers');
      const file = join(setup.dir, 'list-beside.json');
      writeFileSync(file, answer.body);
      const get = { path: '/api/streamers', expect: [200] };
      const cmp = await compare(
        beside,
        listPath,
        { mode: 'static', opts: { file, etag: etagOf(answer.body) }, load: get },
        get,
      );
      rows.push(rowOf(ctx, cmp, { target: '>= 0.9x, p99 <= 1.5x', minRatio: 0.9, maxP99Factor: 1.5 }));
    }
    if (!selected(ctx.only, 'POST /api/comments') && !selected(ctx.only, 'event streams'))
      return { rows, beside: '' };
    const writes = await writePaths(beside, setup.postedId, setup.ceilingDatabase, `, ${OPEN}`);
    rows.push(...writes.rows);
    return { rows, written: writes.written, beside: `, ${OPEN}` };
  } finally {
    holder.stop();
  }
}
