/**
 * Issue 44's rows: `GET /api/streamers?sort=audience` over 1,000 streamers and 1,000,000 votes
 * (seeded in one statement, fifth-seed.ts) against the same bytes precomputed as a Buffer,
 * and a vote (`PUT /api/votes` by a signed-in user, on each streamer in turn: one voter
 * hammering one streamer measures the queue on that one row, not votes across a community)
 * against one INSERT + fsync per request, as comment posting is judged (write-paths.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CeilingOptions } from './ceilings.ts';
import {
  combine,
  compare,
  type Context,
  figures,
  loadCeiling,
  loadOn,
  probeOk,
  rowOf,
  type Run,
  selected,
} from './compare.ts';
import { ms, type Row } from './report.ts';
import { signIn } from './sign-in.ts';

export const VOTES = 1_000_000;
const MIN_ROUNDS = 3;

export async function audienceRows(
  ctx: Context,
  dir: string,
  streamerId: number,
  /** The streamers the vote row votes on, in turn (all of the Public view). */
  voteIds: readonly number[],
  votes: number,
  ceilingDatabase: (name: string) => CeilingOptions,
): Promise<Row[]> {
  const rows: Row[] = [];
  const many = `${votes.toLocaleString('en-US')} votes`;
  const listPath = `GET /api/streamers?sort=audience, ${many}`;
  if (selected(ctx.only, listPath)) {
    const path = '/api/streamers?sort=audience';
    const made = performance.now();
    const answer = await probeOk(ctx, path);
    // The first answer after a start (or a change) makes the ranking.
    ctx.log(`audience ranking made in ${ms(performance.now() - made)}`);
    const file = join(dir, 'audience.json');
    writeFileSync(file, answer.body);
    ctx.log(`audience ranking: ${(answer.body.length / 1024).toFixed(0)} KiB over ${many}`);
    const get = { path, expect: [200] };
    const cmp = await compare(
      ctx,
      listPath,
      { mode: 'static', opts: { file, buffer: true }, load: get },
      get,
    );
    rows.push(rowOf(ctx, cmp, { target: '>= 0.9x its bytes', minRatio: 0.9 }));
  }
  const votePath = `PUT /api/votes (signed-in, ${voteIds.length.toLocaleString('en-US')} streamers in turn), ${many}`;
  if (selected(ctx.only, votePath)) {
    const cookie = await signIn(ctx.service.url, 'benchvoter');
    const vote = {
      path: `/api/votes?streamer_id=${streamerId}`,
      paths: voteIds.map((id) => `/api/votes?streamer_id=${id}`),
      method: 'PUT' as const,
      headers: { 'content-type': 'application/json', cookie, origin: ctx.service.url },
      body: JSON.stringify({ score: 7 }),
      expect: [200],
    };
    // The insert ceiling takes comments: the same INSERT + fsync a vote's upsert costs at least.
    const insert = {
      path: '/api/comments',
      method: 'POST' as const,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ streamer_id: streamerId, body: 'A benchmark vote stand-in.' }),
      expect: [201],
    };
    const service: Run[] = [];
    const perRequest: Run[] = [];
    for (let round = 0; round < Math.max(MIN_ROUNDS, ctx.load.rounds); round++) {
      perRequest.push(await loadCeiling(ctx, 'insert', ceilingDatabase('vote-insert'), insert));
      service.push(await loadOn(ctx, ctx.service, vote));
    }
    const s = combine(service);
    const c = combine(perRequest);
    ctx.log(`${votePath}: service ${figures(s, service)}; INSERT+fsync ceiling ${figures(c, perRequest)}`);
    const rounds = service.map((r, i) => ({ service: r, ceiling: perRequest[i]! }));
    rows.push(
      rowOf(
        ctx,
        { path: votePath, service: s, ceiling: c, rounds },
        { target: '>= 0.9x INSERT+fsync', minRatio: 0.9 },
      ),
    );
  }
  return rows;
}
