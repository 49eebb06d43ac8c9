/**
 * The read paths of issue 9: the public list (plain, brotli, repeat visitor), comments (a
 * page, everything), the current user with an administrator session, and the health check.
 * The service's own answers, fetched once after seeding, are the ceilings' precomputed bytes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { etagOf, startCeiling } from './ceilings.ts';
import { type Case, compare, type Context, missedRow, probe, probeOk, rowOf, runCases } from './compare.ts';
import type { Row } from './report.ts';

const LIST = '/api/streamers';
const PAGE = 50;

export interface ReadSetup {
  /** Scratch directory for the precomputed answers. */
  dir: string;
  busyStreamerId: number;
  comments: number;
  adminCookie: string;
}

const count = (body: Buffer) => (JSON.parse(body.toString()) as unknown[]).length;

/** Runs `fn` once, when first asked; later callers share its result (or its failure). */
function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () => (result ??= fn());
}

export function readPaths(ctx: Context, setup: ReadSetup): Promise<Row[]> {
  const save = (name: string, bytes: Buffer) => {
    const file = join(setup.dir, name);
    writeFileSync(file, bytes);
    return file;
  };

  const list = once(async () => {
    const answer = await probeOk(ctx, LIST);
    const br = brotliCompressSync(answer.body);
    ctx.log(
      `public list: ${count(answer.body)} items, ${(answer.body.length / 1024).toFixed(0)} KiB, ` +
        `brotli ${(br.length / 1024).toFixed(0)} KiB`,
    );
    return {
      answer,
      ceiling: { file: save('list.json', answer.body), etag: etagOf(answer.body) },
      brCeiling: { file: save('list.json.br', br), brotli: true },
    };
  });
  const commentsPath = `/api/comments?streamer_id=${setup.busyStreamerId}`;
  const comments = once(async () => {
    const answer = await probeOk(ctx, commentsPath);
    ctx.log(`comments: ${(answer.body.length / 2 ** 20).toFixed(1)} MiB in all`);
    return answer;
  });

  const cases: Case[] = [
    {
      // Two bare servers alike: what the pairs make of no difference at all on this machine.
      path: 'GET /healthz of a bare server against a second one alike (the bench against itself)',
      target: 'informative: 1.00x',
      run: async (path, target) => {
        const ok = { path: '/healthz', expect: [200] };
        const twin = await startCeiling('ok', {});
        try {
          const cmp = await compare(ctx, path, { mode: 'ok', load: ok }, ok, twin);
          return { ...rowOf(ctx, cmp, { target }), enforced: false };
        } finally {
          await twin.stop();
        }
      },
    },
    {
      path: `GET ${LIST}`,
      target: '>= 0.9x, p99 <= 1.5x',
      run: async (path, target) => {
        const get = { path: LIST, expect: [200] };
        const cmp = await compare(
          ctx,
          path,
          { mode: 'static', opts: (await list()).ceiling, load: get },
          get,
        );
        return rowOf(ctx, cmp, { target, minRatio: 0.9, maxP99Factor: 1.5 });
      },
    },
    {
      path: `GET ${LIST} vs its bytes as a Buffer`,
      target: '>= 0.9x',
      run: async (path, target) => {
        const get = { path: LIST, expect: [200] };
        const ceiling = { ...(await list()).ceiling, buffer: true };
        const cmp = await compare(ctx, path, { mode: 'static', opts: ceiling, load: get }, get);
        return rowOf(ctx, cmp, { target, minRatio: 0.9 });
      },
    },
    {
      path: `GET ${LIST} (br)`,
      target: '>= 0.9x, br, p99 <= 1.5x',
      run: async (path, target) => {
        const br = { path: LIST, headers: { 'accept-encoding': 'br' }, expect: [200] };
        const encoding = String((await probeOk(ctx, LIST, br.headers)).headers['content-encoding'] ?? 'none');
        const cmp = await compare(
          ctx,
          path,
          { mode: 'static', opts: (await list()).brCeiling, load: br },
          br,
        );
        return rowOf(ctx, cmp, {
          target,
          minRatio: 0.9,
          maxP99Factor: 1.5,
          problems: encoding === 'br' ? [] : [`answer not br-encoded (content-encoding: ${encoding})`],
        });
      },
    },
    {
      path: `GET ${LIST} (If-None-Match)`,
      target: '304',
      run: async (path, target) => {
        const { answer, ceiling } = await list();
        const etag = answer.headers.etag;
        if (!etag) return missedRow(ctx, path, target, 'no ETag on the answer');
        const repeat = { path: LIST, headers: { 'if-none-match': etag }, expect: [304] };
        const status = (await probe(ctx, LIST, repeat.headers)).status;
        const ceilingLoad = { ...repeat, headers: { 'if-none-match': ceiling.etag } };
        const cmp = await compare(ctx, path, { mode: 'static', opts: ceiling, load: ceilingLoad }, repeat);
        return rowOf(ctx, cmp, {
          target,
          problems: status === 304 ? [] : [`a matching If-None-Match got ${status}`],
        });
      },
    },
    {
      path: `GET /api/comments, page of ${PAGE}, 1 connection`,
      target: 'p99 < 20 ms',
      run: async (path, target) => {
        // The page a correct service answers: the newest 50, in ascending order (DECISIONS.md).
        const newest = (JSON.parse((await comments()).body.toString()) as unknown[]).slice(-PAGE);
        const ceiling = { file: save('page.json', Buffer.from(JSON.stringify(newest))) };
        const page = { path: `${commentsPath}&limit=${PAGE}`, connections: 1, expect: [200] };
        const items = count((await probeOk(ctx, page.path)).body);
        const cmp = await compare(ctx, path, { mode: 'static', opts: ceiling, load: page }, page);
        return rowOf(ctx, cmp, {
          target,
          underP99Ms: 20,
          problems: items <= PAGE ? [] : [`not paged: the answer has ${items} comments`],
        });
      },
    },
    {
      path: `GET /api/comments, all ${setup.comments}`,
      target: '>= 0.5x',
      run: async (path, target) => {
        const ceiling = { file: save('comments.json', (await comments()).body) };
        const all = { path: commentsPath, expect: [200] };
        const cmp = await compare(ctx, path, { mode: 'static', opts: ceiling, load: all }, all);
        return rowOf(ctx, cmp, { target, minRatio: 0.5 });
      },
    },
    {
      path: 'GET /api/oauth/me (administrator)',
      target: '>= 0.5x',
      run: async (path, target) => {
        const me = { path: '/api/oauth/me', headers: { cookie: setup.adminCookie }, expect: [200] };
        const answer = await probeOk(ctx, me.path, me.headers);
        const isAdmin = (JSON.parse(answer.body.toString()) as { is_admin?: unknown }).is_admin;
        const cmp = await compare(ctx, path, { mode: 'ok', load: { path: me.path, expect: [200] } }, me);
        return rowOf(ctx, cmp, {
          target,
          minRatio: 0.5,
          problems: isAdmin === true ? [] : ['the session cookie did not give is_admin: true'],
        });
      },
    },
    {
      path: 'GET /healthz',
      target: '>= 0.8x',
      run: async (path, target) => {
        const health = { path: '/healthz', expect: [200] };
        const cmp = await compare(ctx, path, { mode: 'ok', load: health }, health);
        return rowOf(ctx, cmp, { target, minRatio: 0.8 });
      },
    },
  ];
  return runCases(ctx, cases);
}
