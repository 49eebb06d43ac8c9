import type { Db } from '../db/schema.ts';
import { MINUTE } from '../lib/clock.ts';
import { meanOf } from '../shared/history.ts';
import { parseGames, rankedGames } from './games.ts';
import type { StreamEntry } from './schemas.ts';

/** A streamer's streams, newest first, with their samples (two queries). */
export async function listStreams(
  db: Db,
  streamerId: number,
  limit: number,
  now: Date,
): Promise<StreamEntry[]> {
  const streams = await db
    .selectFrom('streams')
    .selectAll()
    .where('streamer_id', '=', streamerId)
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  if (streams.length === 0) return [];
  const samples = await db
    .selectFrom('stream_samples')
    .select(['stream_id', 'at', 'viewers'])
    .where(
      'stream_id',
      'in',
      streams.map((s) => s.id),
    )
    .orderBy('stream_id')
    .orderBy('at')
    .orderBy('id')
    .execute();
  const samplesOf = new Map<number, { at: string; viewers: number }[]>();
  for (const s of samples) {
    const list = samplesOf.get(s.stream_id) ?? [];
    list.push({ at: s.at, viewers: s.viewers });
    samplesOf.set(s.stream_id, list);
  }
  return streams.map((s) => ({
    started_at: s.started_at,
    ended_at: s.ended_at,
    minutes: Math.max(
      0,
      Math.floor(((s.ended_at ? Date.parse(s.ended_at) : now.getTime()) - Date.parse(s.started_at)) / MINUTE),
    ),
    peak_viewers: s.peak_viewers,
    avg_viewers: meanOf(Number(s.viewer_sum), s.samples),
    games: rankedGames(parseGames(s.games)),
    title: s.title,
    samples: samplesOf.get(s.id) ?? [],
  }));
}
