/** Stream history (issue 28): streams seen by live sync, their samples, the last-30-days figures. */
import type { ColumnType, Generated } from 'kysely';

export interface StreamsTable {
  id: Generated<number>;
  streamer_id: number;
  started_at: string;
  /** Null while the stream is open (one open stream per streamer: a partial unique index). */
  ended_at: string | null;
  last_seen_at: string;
  samples: Generated<number>;
  /** bigint on PostgreSQL: read through Number(). */
  viewer_sum: ColumnType<number | string, number | undefined, number>;
  peak_viewers: Generated<number>;
  title: Generated<string>;
  /** JSON: samples per game name. */
  games: Generated<string>;
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
  viewer_sum: ColumnType<number | string, number, number>;
  peak_viewers: number;
  top_game: string | null;
  oldest_start: string;
}
