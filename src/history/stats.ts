import { type Selectable, sql } from 'kysely';
import { insertManyQueries } from '../db/update-many.ts';
import { type Write, writeTogether } from '../db/write-together.ts';
import type { Db } from '../db/schema.ts';
import type { StreamsTable } from '../db/schema/streams.ts';
import { DAY } from '../lib/clock.ts';
import { HISTORY, hoursOf, meanOf } from '../shared/history.ts';
import { addGames, type GameCounts, parseGames, rankedGames } from './games.ts';

/** A streamer's `stats_30d` (DECISIONS.md "Fourth wave / Stream history"). */
export interface Stats30d {
  streams: number;
  hours: number;
  avg_viewers: number;
  peak_viewers: number;
  top_game: string | null;
}

export const NO_STATS: Stats30d = Object.freeze({
  streams: 0,
  hours: 0,
  avg_viewers: 0,
  peak_viewers: 0,
  top_game: null,
});

/** The earliest start a stream may have to count in `stats_30d` at `now`. */
export const statsCutoff = (now: Date): string =>
  new Date(now.getTime() - HISTORY.statsDays * DAY).toISOString();

const seconds = (from: string, to: string) =>
  Math.max(0, Math.floor((Date.parse(to) - Date.parse(from)) / 1000));

/**
 * Makes the kept last-30-days figures of `streamerIds` again from their streams (the write
 * that changes a stream calls this in its transaction; the list only reads the result).
 */
export async function refreshStats(trx: Db, streamerIds: number[], now: Date): Promise<void> {
  if (streamerIds.length === 0) return;
  const rows = await trx
    .selectFrom('streams')
    .select(['streamer_id', 'started_at', 'last_seen_at', 'samples', 'viewer_sum', 'peak_viewers', 'games'])
    .where('streamer_id', 'in', streamerIds)
    .where('started_at', '>=', statsCutoff(now))
    .execute();
  await writeStats(trx, streamerIds, rows);
}

/** The kept figures' columns, as insertManyQueries casts them. */
const FIGURES = {
  streamer_id: 'integer',
  streams: 'integer',
  seconds: 'integer',
  samples: 'integer',
  viewer_sum: 'bigint',
  peak_viewers: 'integer',
  top_game: 'text',
  oldest_start: 'text',
} as const;

/** A stream as the figures count it. */
type Counted = Pick<
  Selectable<StreamsTable>,
  'streamer_id' | 'started_at' | 'last_seen_at' | 'samples' | 'viewer_sum' | 'peak_viewers' | 'games'
>;

/**
 * Writes the kept figures of `streamerIds` from `rows`, their streams that started since
 * statsCutoff (refreshStats reads them; a sync batch has them in hand).
 */
export async function writeStats(trx: Db, streamerIds: number[], rows: Counted[]): Promise<void> {
  await writeTogether(trx, statsWrites(trx, streamerIds, rows));
}

/** writeStats's statements, not run (the sync batch runs them with its others). */
export function statsWrites(trx: Db, streamerIds: number[], rows: Counted[]): Write[] {
  if (streamerIds.length === 0) return [];
  const byStreamer = new Map<number, Counted[]>();
  for (const r of rows) byStreamer.set(r.streamer_id, [...(byStreamer.get(r.streamer_id) ?? []), r]);
  const values = [...byStreamer].map(([streamer_id, streams]) => {
    let games: GameCounts = {};
    for (const s of streams) games = addGames(games, parseGames(s.games));
    return {
      streamer_id,
      streams: streams.length,
      seconds: streams.reduce((n, s) => n + seconds(s.started_at, s.last_seen_at), 0),
      samples: streams.reduce((n, s) => n + s.samples, 0),
      viewer_sum: streams.reduce((n, s) => n + Number(s.viewer_sum), 0),
      peak_viewers: Math.max(...streams.map((s) => s.peak_viewers)),
      top_game: rankedGames(games)[0] ?? null,
      oldest_start: streams.reduce(
        (o, s) => (s.started_at < o ? s.started_at : o),
        streams[0]?.started_at ?? '',
      ),
    };
  });
  const without = streamerIds.filter((id) => !byStreamer.has(id));
  const writes: Write[] = [];
  if (without.length > 0)
    writes.push(sql`${trx.deleteFrom('stream_stats').where('streamer_id', 'in', without)}`);
  if (values.length === 0) return writes;
  writes.push(...insertManyQueries(trx, 'stream_stats', FIGURES, values, 'streamer_id'));
  return writes;
}

/** A kept row as the streamer items carry it (null: no streams in the window). */
export function statsOf(
  row: {
    streams: number;
    seconds: number;
    samples: number;
    viewer_sum: number;
    peak_viewers: number;
    top_game: string | null;
  } | null,
): Stats30d {
  if (row === null || row.streams === 0) return NO_STATS;
  return {
    streams: row.streams,
    hours: hoursOf(row.seconds),
    avg_viewers: meanOf(row.viewer_sum, row.samples),
    peak_viewers: row.peak_viewers,
    top_game: row.top_game,
  };
}
