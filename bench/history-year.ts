/**
 * A year of stream history (issue 28): 1,000 streamers who streamed every day for a year,
 * about 20 million samples in all. The streamers are added and rated through the API (so the
 * public list shows them); the history is written straight into the service's SQLite file in
 * the shape the service's own upkeep leaves it (history/prune.ts): streams of the last 365
 * days with their counters, samples (one a minute while live) only for the last 30 days, and
 * the kept `stats_30d` made by the service's own refreshStats. Then the service starts again
 * on that file and answers `?streams=1` and the public list.
 *
 * BENCH_HISTORY_DAYS (default 365) shortens the year for a quick look; the file size is
 * judged only at the full year.
 */
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../src/db/connect.ts';
import { maintainHistory } from '../src/history/prune.ts';
import { refreshStats } from '../src/history/stats.ts';
import { DAY, MINUTE } from '../src/lib/clock.ts';
import { HISTORY } from '../src/shared/history.ts';
import { etagOf } from './ceilings.ts';
import { compare, type Context, probeOk, rowOf, type SuiteOptions } from './compare.ts';
import { DASH, ms, type Row } from './report.ts';
import { seed } from './seed.ts';
import type { Service } from '../test/helpers/service.ts';

/** Samples of one day's stream: 30 to 80 minutes (55 on average: 20 million a year for 1,000). */
const minutesOf = (streamer: number, day: number) => 30 + ((streamer * 7 + day * 13) % 51);
/** When each streamer goes live: its own hour of the day. */
const startOf = (streamer: number) => ((streamer * 37) % (24 * 60)) * MINUTE;
const GAMES = ['Just Chatting', 'Counter-Strike 2', 'Minecraft', 'Elden Ring', 'Valorant', 'Dota 2'];
const title = (streamer: number, day: number) => `Day ${day} with streamer ${streamer}: ranked grind`;

export interface Year {
  /** The streamer with the longest recent streams (the largest `?streams=1` answer). */
  busiest: number;
  streams: number;
  samples: number;
  /** Samples the year had before the upkeep's roll-up (those older than 30 days went). */
  yearSamples: number;
  seedMs: number;
  /** One run of the service's upkeep over the year (it must find nothing to prune). */
  upkeepMs: number;
}

/**
 * Writes the year into the SQLite `file` (the service's, migrated, with `streamerIds` in it)
 * for the year ending at `now`.
 */
export async function seedYear(file: string, streamerIds: number[], now: Date, days: number): Promise<Year> {
  const started = performance.now();
  const database = openDatabase(`sqlite:${file}`);
  const sqlite = database.sqlite!;
  const sampleCut = now.getTime() - HISTORY.samplesDays * DAY;
  const addStream = sqlite.prepare(
    `insert into streams (streamer_id, started_at, ended_at, last_seen_at, samples, viewer_sum, peak_viewers, title, games)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const addSample = sqlite.prepare(
    'insert into stream_samples (stream_id, at, viewers, game, title) values (?, ?, ?, ?, ?)',
  );
  let streams = 0;
  let samples = 0;
  let yearSamples = 0;
  const today = Math.floor(now.getTime() / DAY) * DAY;
  // Day by day, oldest first, as live sync writes: the day's streams in the order they
  // started, then its samples in time order (interleaved across streamers, not one stream's
  // together: reading a stream's samples touches as many pages as it would in the service).
  const writeDay = sqlite.transaction((day: number) => {
    const starts = streamerIds
      .map((id, n) => ({ id, n, start: today - day * DAY + startOf(n) }))
      .filter((s) => s.start <= now.getTime() && s.start >= now.getTime() - HISTORY.streamsDays * DAY)
      .sort((a, b) => a.start - b.start);
    const kept: { at: number; stream: number | bigint; viewers: number; game: string; title: string }[] = [];
    for (const { id, n, start } of starts) {
      const length = Math.min(minutesOf(n, day), Math.floor((now.getTime() - start) / MINUTE) + 1);
      const open = start + minutesOf(n, day) * MINUTE > now.getTime();
      const game = GAMES[(n + day) % GAMES.length]!;
      const viewers = Array.from({ length }, (_, i) => 50 + ((n * 31 + day * 17 + i * 7) % 400));
      const last = new Date(start + (length - 1) * MINUTE).toISOString();
      const { lastInsertRowid: stream } = addStream.run(
        id,
        new Date(start).toISOString(),
        open ? null : last,
        last,
        length,
        viewers.reduce((a, b) => a + b, 0),
        Math.max(...viewers),
        title(n, day),
        JSON.stringify({ [game]: length }),
      );
      streams++;
      yearSamples += length;
      viewers.forEach((v, i) => {
        const at = start + i * MINUTE;
        // Older ones are rolled up: the upkeep dropped them, the stream keeps its counters.
        if (at >= sampleCut) kept.push({ at, stream, viewers: v, game, title: title(n, day) });
      });
    }
    kept.sort((a, b) => a.at - b.at);
    for (const k of kept) addSample.run(k.stream, new Date(k.at).toISOString(), k.viewers, k.game, k.title);
    samples += kept.length;
  });
  for (let day = days - 1; day >= 0; day--) writeDay(day);
  for (let k = 0; k < streamerIds.length; k += 500) {
    const ids = streamerIds.slice(k, k + 500);
    await database.db.transaction().execute((trx) => refreshStats(trx, ids, now));
  }
  const seedMs = performance.now() - started;
  const upkeepStarted = performance.now();
  await maintainHistory(database, now);
  const upkeepMs = performance.now() - upkeepStarted;
  const left = sqlite.prepare('select count(*) as n from stream_samples').get() as { n: number };
  if (left.n !== samples)
    throw new Error(`the upkeep pruned ${samples - left.n} samples: the seed's shape is wrong`);
  // The largest `?streams=1` answer: the streamer with the most samples in its newest streams.
  const { busiest } = sqlite
    .prepare(
      `select streamer_id as busiest from streams join stream_samples on stream_samples.stream_id = streams.id
       group by streamer_id order by count(*) desc limit 1`,
    )
    .get() as { busiest: number };
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  await database.db.destroy();
  return { busiest, streams, samples, yearSamples, seedMs, upkeepMs };
}

/** The SQLite file and its WAL, bytes. */
function fileBytes(file: string): number {
  const size = (f: string) => {
    try {
      return statSync(f).size;
    } catch {
      return 0;
    }
  };
  return size(file) + size(`${file}-wal`);
}

const FILE_LIMIT = 2 * 2 ** 30;

const yearRowBase = { serviceP99: DASH, ceiling: DASH, ceilingP99: DASH, ratio: DASH };

const describe = (y: Year) =>
  `a year of history: ${y.streams.toLocaleString('en-US')} streams, ${y.yearSamples.toLocaleString('en-US')} samples ` +
  `in the year, ${y.samples.toLocaleString('en-US')} kept (30 days); seeded in ${ms(y.seedMs)}, upkeep run ${ms(y.upkeepMs)}`;

/** The year's rows: the service on a file of its own, seeded as above. */
export async function historyYearRows(
  opts: SuiteOptions,
  start: (opts: SuiteOptions, name: string) => Promise<Service>,
  peaks: (number | null)[],
): Promise<Row[]> {
  const days = positiveDays();
  const file = join(opts.dir, 'year.db');
  const own = { ...opts, databaseUrl: `sqlite:${file}` };
  const adding = await start(own, 'service (a year of history: adding the streamers)');
  let streamerIds: number[];
  try {
    ({ streamerIds } = await seed(adding.url, { streamers: STREAMERS, comments: 0 }, opts.log));
  } finally {
    await adding.stop();
  }
  const year = await seedYear(file, streamerIds, new Date(), days);
  opts.log(describe(year));
  const bytes = fileBytes(file);
  const service = await start(own, 'service (a year of history)');
  const ctx: Context = { service, load: opts.load, enforce: opts.enforce, only: [], log: opts.log };
  const save = (name: string, body: Buffer) => {
    const saved = join(opts.dir, name);
    writeFileSync(saved, body);
    return saved;
  };
  try {
    const rows: Row[] = [];
    const streamsPath = `/api/streamers?id=${year.busiest}&streams=1`;
    const streams = await probeOk(ctx, streamsPath);
    const entries = JSON.parse(streams.body.toString()) as { samples: unknown[] }[];
    opts.log(
      `?streams=1 of streamer #${year.busiest}: ${entries.length} streams, ` +
        `${entries.reduce((n, e) => n + e.samples.length, 0)} samples, ${(streams.body.length / 1024).toFixed(0)} KiB`,
    );
    const one = { path: streamsPath, connections: 1, expect: [200] };
    const cmp = await compare(
      ctx,
      `GET /api/streamers?id=N&streams=1, a year of history, 1 connection`,
      { mode: 'static', opts: { file: save('year-streams.json', streams.body) }, load: one },
      one,
    );
    rows.push(
      rowOf(ctx, cmp, {
        target: 'p99 < 20 ms',
        underP99Ms: 20,
        problems: entries.length === HISTORY.streamsLimitDefault ? [] : [`${entries.length} streams, not 20`],
      }),
    );
    const list = await probeOk(ctx, '/api/streamers');
    const items = JSON.parse(list.body.toString()) as { stats_30d: { streams: number } }[];
    const get = { path: '/api/streamers', expect: [200] };
    const listed = await compare(
      ctx,
      'GET /api/streamers, a year of history (stats_30d)',
      {
        mode: 'static',
        opts: { file: save('year-list.json', list.body), etag: etagOf(list.body) },
        load: get,
      },
      get,
    );
    rows.push(
      rowOf(ctx, listed, {
        target: '>= 0.9x, p99 <= 1.5x',
        minRatio: 0.9,
        maxP99Factor: 1.5,
        problems: items.every((i) => i.stats_30d.streams > 0) ? [] : ['an item without its stats_30d'],
      }),
    );
    rows.push({
      ...yearRowBase,
      path: `SQLite file, a year of history (${days} days)`,
      service: `${(bytes / 2 ** 20).toFixed(0)} MiB`,
      target: '< 2 GB',
      ok: bytes < FILE_LIMIT,
      enforced: opts.enforce && days === 365,
      notes: [],
    });
    return rows;
  } finally {
    peaks.push(service.peakRssMiB());
    await service.stop();
  }
}

const STREAMERS = 1000;

function positiveDays(): number {
  const raw = process.env.BENCH_HISTORY_DAYS;
  if (raw === undefined || raw === '') return HISTORY.streamsDays;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > HISTORY.streamsDays)
    throw new Error(
      `BENCH_HISTORY_DAYS must be a whole number from 1 to ${HISTORY.streamsDays} (got ${raw})`,
    );
  return Number(raw);
}
