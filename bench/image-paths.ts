/**
 * Issue 20's images: a cached share card and a cached badge against a bare server sending the
 * same bytes (the service's own answers, fetched once), and how long drawing one takes (the
 * first request for an image nobody asked for yet, timed from outside).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { etagOf } from './ceilings.ts';
import { type Case, compare, type Context, probeOk, rowOf, runCases } from './compare.ts';
import { request } from './http.ts';
import { DASH, ms, type Row } from './report.ts';

export interface ImageSetup {
  /** Scratch directory for the precomputed answers. */
  dir: string;
  /** Rated streamers (the Public view). */
  streamerIds: number[];
}

/** Drawing one image, first request to answer: the target of issue 20. */
const DRAW_MS = 200;

export function imagePaths(ctx: Context, setup: ImageSetup): Promise<Row[]> {
  let coldStart: number | null = null;
  const cached = (label: string, path: string, contentType: string): Case => ({
    path: `GET ${label} (drawn, cached)`,
    target: '>= 0.9x',
    run: async (name, target) => {
      const answer = await probeOk(ctx, path);
      const type = String(answer.headers['content-type'] ?? '');
      const file = join(setup.dir, `image-${label.replace(/\W+/g, '-')}`);
      writeFileSync(file, answer.body);
      ctx.log(`${label}: ${(answer.body.length / 1024).toFixed(1)} KiB ${type}`);
      const load = { path, expect: [200] };
      const cmp = await compare(
        ctx,
        name,
        { mode: 'static', opts: { file, etag: etagOf(answer.body), contentType }, load },
        load,
      );
      return rowOf(ctx, cmp, {
        target,
        minRatio: 0.9,
        problems: type === contentType ? [] : [`Content-Type ${type}, not ${contentType}`],
      });
    },
  });

  const [cardId, badgeId] = setup.streamerIds;
  const cases: Case[] = [
    {
      path: 'drawing a card or a badge (first request)',
      target: `< ${DRAW_MS} ms each`,
      run: async (path, target) => {
        // Streamers whose images nobody asked for: each request draws. The very first also
        // starts the drawing process (images/drawer.ts), which loads fontkit, the fonts and
        // resvg: that start is reported on a row of its own.
        const fresh = setup.streamerIds.slice(10, 23);
        const times: number[] = [];
        const problems: string[] = [];
        for (const [i, id] of fresh.entries()) {
          const url =
            i % 3 === 0 ? `/s/${id}/card.png` : i % 3 === 1 ? `/badge/${id}.png` : `/badge/${id}.svg`;
          const started = performance.now();
          const answer = await request(ctx.service.url + url, {});
          times.push(performance.now() - started);
          if (answer.status !== 200) problems.push(`${url} answered ${answer.status}`);
        }
        const [cold = 0, ...warm] = times;
        const slowest = Math.max(...warm);
        ctx.log(`${path}: first ${ms(cold)} (starting the drawing process), then ${warm.map(ms).join(', ')}`);
        coldStart = cold;
        return {
          path,
          service: `max ${ms(slowest)}`,
          serviceP99: DASH,
          ceiling: DASH,
          ceilingP99: DASH,
          ratio: DASH,
          target,
          ok: problems.length === 0 && slowest < DRAW_MS,
          enforced: ctx.enforce,
          notes: problems,
        };
      },
    },
    {
      path: 'the first card or badge after 10 quiet minutes (starts the drawing process)',
      target: 'informative',
      run: async (path, target) => ({
        path,
        service: coldStart === null ? DASH : ms(coldStart),
        serviceP99: DASH,
        ceiling: DASH,
        ceilingP99: DASH,
        ratio: DASH,
        target,
        ok: coldStart !== null,
        enforced: false,
        notes: [],
      }),
    },
    cached('/s/<id>/card.png', `/s/${cardId}/card.png`, 'image/png'),
    cached('/badge/<id>.svg', `/badge/${badgeId}.svg`, 'image/svg+xml'),
  ];
  return runCases(ctx, cases);
}
