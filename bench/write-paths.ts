/**
 * Comment posting against two ceilings (one INSERT + fsync per request; inserts
 * group-committed every 2 ms), and the check that every acknowledged comment was stored.
 */
import { SUCCESS_CLASS } from './wrk.ts';
import {
  combine,
  type Context,
  eachRatio,
  figures,
  loadCeiling,
  loadOn,
  rowOf,
  type Run,
} from './compare.ts';
import type { CeilingOptions } from './ceilings.ts';
import { callJson } from './http.ts';
import { DASH, type Row, rps } from './report.ts';

/**
 * At least this many rounds: fsync latency drifts more than anything else. A row is judged by
 * the median of its rounds' ratios, as a read row by its pairs', so one round that another
 * tenant of the machine spoiled on one side does not decide it.
 */
export const MIN_ROUNDS = 5;

export interface Written {
  streamerId: number;
  /** 201 answers the load generator received (warm-up included). */
  acknowledged: number;
  /** The streamer's comments as the API lists them right after the load. */
  storedViaApi: number;
}

export async function writePaths(
  ctx: Context,
  streamerId: number,
  ceilingDatabase: (name: string) => CeilingOptions,
  /** Said after the rows' path: who posts (a guest when empty), what else goes on meanwhile. */
  beside = '',
  /** The poster's own headers: a signed-in user's session cookie and the page's origin. */
  poster: Record<string, string> = {},
): Promise<{ rows: Row[]; written: Written }> {
  const post = {
    path: '/api/comments',
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', ...poster },
    body: JSON.stringify({ streamer_id: streamerId, body: 'A benchmark comment, posted under load.' }),
    expect: [201],
  };
  // fsync latency on a shared disk drifts within minutes: rounds, each with both ceilings and
  // the service one after the other.
  const perRequest: Run[] = [];
  const service: Run[] = [];
  const grouped: Run[] = [];
  for (let round = 0; round < Math.max(MIN_ROUNDS, ctx.load.rounds); round++) {
    perRequest.push(await loadCeiling(ctx, 'insert', ceilingDatabase('insert'), post));
    service.push(await loadOn(ctx, ctx.service, post));
    grouped.push(await loadCeiling(ctx, 'group-commit', ceilingDatabase('group'), post));
  }
  const s = combine(service);
  const against = (ceilings: Run[]) => service.map((round, i) => ({ service: round, ceiling: ceilings[i]! }));
  const insert = combine(perRequest);
  const group = combine(grouped);
  ctx.log(
    `POST /api/comments${beside}: service ${figures(s, service)}; INSERT+fsync ceiling ${figures(insert, perRequest)}; ` +
      `group-commit ceiling ${figures(group, grouped)}; against INSERT+fsync${eachRatio(against(perRequest))}; ` +
      `service ${ctx.service.memoryNote()}`,
  );
  // 201s as autocannon counts them, or wrk's 2xx and 3xx (a POST answers nothing else in that class).
  const acked = (counts: Record<string, number>) => (counts['201'] ?? 0) + (counts[SUCCESS_CLASS] ?? 0);
  const acknowledged = acked(s.summary.statusCounts) + acked(s.warmupCounts);
  const storedViaApi = await countViaApi(ctx, streamerId);
  const rows = [
    // Enforced on both databases (issue 18): PostgreSQL, which several instances need, too.
    {
      ...rowOf(
        ctx,
        { path: `POST /api/comments${beside}`, service: s, ceiling: insert, rounds: against(perRequest) },
        {
          target: '>= 0.9x INSERT+fsync',
          minRatio: 0.9,
        },
      ),
      enforced: true,
    },
    {
      ...rowOf(
        ctx,
        {
          path: `POST /api/comments vs group commit${beside}`,
          service: s,
          ceiling: group,
          rounds: against(grouped),
        },
        {
          target: '>= 0.5x (stretch)',
          minRatio: 0.5,
        },
      ),
      enforced: false,
    },
  ];
  return { rows, written: { streamerId, acknowledged, storedViaApi } };
}

/**
 * The streamer's comments as the API counts them: `comment_count` of its item, which costs
 * nothing to read (listing tens of thousands of comments would set the memory peak itself);
 * the length of the whole list where items have no count.
 */
async function countViaApi(ctx: Context, streamerId: number): Promise<number> {
  const base = ctx.service.url;
  const item = await callJson<{ comment_count?: unknown }>(`${base}/api/streamers?id=${streamerId}`, {
    expect: 200,
  });
  if (typeof item.json.comment_count === 'number') return item.json.comment_count;
  const all = await callJson<unknown[]>(`${base}/api/comments?streamer_id=${streamerId}`, { expect: 200 });
  return all.json.length;
}

/** A lost write is a failure on either database. */
export function storedRow(written: Written, storedInDb: number, beside = ''): Row {
  const { acknowledged, storedViaApi } = written;
  const lost = Math.max(0, acknowledged - Math.min(storedViaApi, storedInDb));
  return {
    path: `POST /api/comments${beside}: every 201 stored`,
    service: `${rps(storedInDb)} in db, ${rps(storedViaApi)} via API`,
    serviceP99: DASH,
    ceiling: `${rps(acknowledged)} acked`,
    ceilingP99: DASH,
    ratio: DASH,
    target: 'none lost',
    ok: lost === 0 && acknowledged > 0,
    enforced: true,
    notes: lost > 0 ? [`${lost} acknowledged comments are missing`] : [],
  };
}
