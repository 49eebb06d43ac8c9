import { sql } from 'kysely';
import { inIds } from '../db/dialect.ts';
import type { Db } from '../db/schema.ts';
import { insertManyQueries, updateManyQueries } from '../db/update-many.ts';
import { type Write, writeTogether } from '../db/write-together.ts';
import { HISTORY } from '../shared/history.ts';
import { notifyLive } from '../notifications/notify.ts';
import { countGame, parseGames } from './games.ts';
import { statsCutoff, statsWrites } from './stats.ts';

/** What one successful check saw of a live streamer, already cleaned (game and title cut). */
export interface Sighting {
  streamerId: number;
  game: string;
  title: string;
  viewers: number;
  /** The provider's start time, or null. */
  since: string | null;
}

/** A viewer count as the history keeps it: a whole number from 0 to maxViewers. */
export const cleanViewers = (n: number): number =>
  Number.isFinite(n) ? Math.min(Math.max(Math.trunc(n), 0), HISTORY.maxViewers) : 0;

const COUNTERS = {
  last_seen_at: 'text',
  samples: 'integer',
  viewer_sum: 'bigint',
  peak_viewers: 'integer',
  title: 'text',
  games: 'text',
} as const;

/** A sample's columns, as insertManyQueries casts them. */
const SAMPLE = { stream_id: 'integer', at: 'text', viewers: 'integer', game: 'text', title: 'text' } as const;

/** When a new stream started: the provider's time, unless missing or after this check. */
export const startOf = (since: string | null, now: string): string =>
  since === null || since > now ? now : since;

/**
 * Records one successful check in the stream history, inside the sync write's transaction:
 * a sample for every streamer seen live (a new stream for those without an open one), the
 * end of the open stream of those that went offline by the offline rule (`ended`), and the
 * last-30-days figures of all of them made again. Statements are per batch, not per streamer.
 */
export async function recordChecks(trx: Db, seen: Sighting[], ended: number[], now: string): Promise<void> {
  await writeTogether(trx, await checkWrites(trx, seen, ended, now));
}

/**
 * recordChecks's reads and the streams it starts (their ids are needed), then its other
 * writes, not run: the sync batch runs them with its own (db/write-together.ts).
 */
export async function checkWrites(trx: Db, seen: Sighting[], ended: number[], now: string): Promise<Write[]> {
  if (seen.length === 0 && ended.length === 0) return [];
  const streamerIds = [...new Set([...seen.map((s) => s.streamerId), ...ended])];
  const cutoff = statsCutoff(new Date(now));
  // One read for both uses: the open streams, and the streams the 30-day figures count.
  const known = await trx
    .selectFrom('streams')
    .select(['id', 'streamer_id', 'started_at', 'last_seen_at', 'ended_at', 'samples', 'viewer_sum'])
    .select(['peak_viewers', 'games'])
    .where(inIds(trx, 'streamer_id', streamerIds))
    .where((eb) => eb.or([eb('ended_at', 'is', null), eb('started_at', '>=', cutoff)]))
    .execute();
  const openOf = new Map(known.filter((o) => o.ended_at === null).map((o) => [o.streamer_id, o]));
  const fresh = seen.filter((s) => !openOf.has(s.streamerId));
  const streamOf = new Map([...openOf].map(([streamer, o]) => [streamer, o.id]));
  const started = fresh.map((s) => {
    const viewers = cleanViewers(s.viewers);
    return {
      streamer_id: s.streamerId,
      started_at: startOf(s.since, now),
      last_seen_at: now,
      samples: 1,
      viewer_sum: viewers,
      peak_viewers: viewers,
      title: s.title,
      games: JSON.stringify(countGame({}, s.game)),
    };
  });
  if (started.length > 0) {
    const made = await trx.insertInto('streams').values(started).returning(['id', 'streamer_id']).execute();
    for (const m of made) streamOf.set(m.streamer_id, m.id);
    // A stream started: its streamer's followers hear of it (DECISIONS.md "Fifth wave" → "Following").
    await notifyLive(trx, made, now);
  }
  // The open streams' counters: one statement for the batch (updateMany).
  const going = new Map(
    seen.flatMap((s) => {
      const o = openOf.get(s.streamerId);
      if (!o) return [];
      const viewers = cleanViewers(s.viewers);
      const set = {
        last_seen_at: now,
        samples: o.samples + 1,
        viewer_sum: Number(o.viewer_sum) + viewers,
        peak_viewers: Math.max(o.peak_viewers, viewers),
        title: s.title,
        games: JSON.stringify(countGame(parseGames(o.games), s.game)),
      };
      return [[o.id, set] as const];
    }),
  );
  const writes = updateManyQueries(
    trx,
    'streams',
    COUNTERS,
    [...going].map(([id, set]) => ({ id, set })),
  );
  writes.push(
    ...insertManyQueries(
      trx,
      'stream_samples',
      SAMPLE,
      seen.map((s) => ({
        stream_id: streamOf.get(s.streamerId) ?? 0,
        at: now,
        viewers: cleanViewers(s.viewers),
        game: s.game,
        title: s.title,
      })),
    ),
  );
  if (ended.length > 0) {
    // Disjoint from the counters' rows: a stream that ends was not seen by this check.
    const ending = trx
      .updateTable('streams')
      .set((eb) => ({ ended_at: eb.ref('last_seen_at') }))
      .where('streamer_id', 'in', ended)
      .where('ended_at', 'is', null);
    writes.push(sql`${ending}`);
  }
  // The figures from the streams as this check left them, without reading them again.
  const counted = [...known.map((k) => ({ ...k, ...going.get(k.id) })), ...started];
  writes.push(
    ...statsWrites(
      trx,
      streamerIds,
      counted.filter((k) => k.started_at >= cutoff),
    ),
  );
  return writes;
}
