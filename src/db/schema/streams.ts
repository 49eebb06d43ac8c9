/** Stream history (issue 28): streams seen by live sync, their samples, the last-30-days figures. */
import type { Generated } from 'kysely';

export interface StreamsTable {
  id: Generated<number>;
  streamer_id: number;
  started_at: string;
  /** Null while the stream is open (one open stream per streamer: a partial unique index). */
  ended_at: string | null;
  last_seen_at: string;
  samples: number;
  /** bigint on PostgreSQL: read through Number(). */
  viewer_sum: number | string;
  peak_viewers: number;
  title: string;
  /** JSON: samples per game name. */
  games: string;
}

export interface StreamSamplesTable {
  id: Generated<number>;
  stream_id: number;
  at: string;
  viewers: number;
  game: string;
  title: string;
}

export interface StreamStatsTable {
  streamer_id: number;
  streams: number;
  seconds: number;
  samples: number;
  viewer_sum: number | string;
  peak_viewers: number;
  top_game: string | null;
  oldest_start: string;
}
