/**
 * Issue 43's rows: the week's schedule (`GET /api/schedule?days=7`) and the site's calendar
 * (`/schedule.ics`) over 10,000 streamers with 5 segments each, each against its own bytes
 * precomputed; the chat line (`/bot/<platform>/<channel>.txt`) against the service's own
 * `/healthz` (>= 0.8x, as the issue words it), and, stricter, against the same text from a bare
 * server (>= 0.8x); and the busy streamer's comments by likes (`order=top`) on one
 * connection, p99 under 20 ms. The data is written by fifth-seed.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Case,
  compare,
  type Context,
  eachRatio,
  inPairs,
  probeOk,
  ratioOf,
  rowOf,
  runCases,
} from './compare.ts';
import { ratio } from './report.ts';
import type { Row } from './report.ts';

export const SCHEDULED = 10_000;
export const SEGMENTS = 5;

export interface ScheduleSetup {
  dir: string;
  busyStreamerId: number;
  comments: number;
  likes: number;
  /** A seeded streamer's chat line: `/bot/twitch/<channel>.txt`. */
  chatLine: string;
}

/** A path against a bare server that sends the service's own answer, precomputed. */
async function againstItsBytes(
  ctx: Context,
  name: string,
  path: string,
  goal: { target: string; minRatio?: number; underP99Ms?: number; connections?: number },
  dir: string,
): Promise<Row> {
  const answer = await probeOk(ctx, path);
  const file = join(dir, `answer-${name.replace(/\W+/g, '-')}`);
  writeFileSync(file, answer.body);
  const contentType = String(answer.headers['content-type'] ?? 'application/json');
  ctx.log(`${name}: ${answer.body.length} bytes, ${contentType}`);
  const get = { path, expect: [200], ...(goal.connections ? { connections: goal.connections } : {}) };
  const cmp = await compare(
    ctx,
    name,
    { mode: 'static', opts: { file, buffer: true, contentType }, load: get },
    get,
  );
  return rowOf(ctx, cmp, goal);
}

/**
 * The chat line against the service's own `/healthz`, the measure ("the chat line at
 * >= 0.8x of /healthz"): both answered before routing by the same process, in pairs of short
 * loads like every read row, `/healthz` first; the ceiling column is the service's `/healthz`.
 */
async function againstHealthz(ctx: Context, name: string, path: string, target: string): Promise<Row> {
  await probeOk(ctx, path);
  const health = { on: ctx.service, load: { path: '/healthz', expect: [200] } };
  const cmp = await inPairs(ctx, name, health, { on: ctx.service, load: { path, expect: [200] } });
  ctx.log(
    `${name}: ${Math.round(cmp.service.rps)} req/s, /healthz ${Math.round(cmp.ceiling.rps)} req/s, ` +
      `ratio ${ratio(ratioOf(cmp))}${eachRatio(cmp.rounds!)}`,
  );
  return rowOf(ctx, cmp, { target, minRatio: 0.8 });
}

export function scheduleRows(ctx: Context, setup: ScheduleSetup): Promise<Row[]> {
  const over = `${SCHEDULED.toLocaleString('en-US')} streamers x ${SEGMENTS} segments`;
  const cases: Case[] = [
    {
      path: `GET /api/schedule?days=7, ${over}`,
      target: '>= 0.9x its bytes',
      run: (path, target) =>
        againstItsBytes(ctx, path, '/api/schedule?days=7', { target, minRatio: 0.9 }, setup.dir),
    },
    {
      path: `GET /schedule.ics, ${over}`,
      target: '>= 0.9x its bytes',
      run: (path, target) =>
        againstItsBytes(ctx, path, '/schedule.ics', { target, minRatio: 0.9 }, setup.dir),
    },
    {
      path: "GET /bot/<platform>/<channel>.txt (chat line) vs the service's /healthz",
      target: '>= 0.8x /healthz',
      run: (path, target) => againstHealthz(ctx, path, setup.chatLine, target),
    },
    {
      // Stricter: the same bytes from a bare server, without the service's headers.
      path: 'GET /bot/<platform>/<channel>.txt (chat line) vs its bytes',
      target: '>= 0.8x its bytes',
      run: (path, target) => againstItsBytes(ctx, path, setup.chatLine, { target, minRatio: 0.8 }, setup.dir),
    },
    {
      path: `GET /api/comments?order=top, ${setup.comments.toLocaleString('en-US')} comments, ${setup.likes.toLocaleString('en-US')} likes, 1 connection`,
      target: 'p99 < 20 ms',
      run: (path, target) =>
        againstItsBytes(
          ctx,
          path,
          `/api/comments?streamer_id=${setup.busyStreamerId}&order=top`,
          { target, underP99Ms: 20, connections: 1 },
          setup.dir,
        ),
    },
  ];
  return runCases(ctx, cases);
}
