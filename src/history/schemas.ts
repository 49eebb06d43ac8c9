import { type Static, Type } from 'typebox';
import { Nullable, Timestamp } from '../lib/schemas.ts';

/** `stats_30d` of a streamer item (DECISIONS.md "Fourth wave / Stream history"). */
export const Stats30d = Type.Object(
  {
    streams: Type.Integer({ minimum: 0 }),
    hours: Type.Number({ minimum: 0, description: 'To one decimal, half up' }),
    avg_viewers: Type.Integer({ minimum: 0, description: "The rounded mean of those streams' samples" }),
    peak_viewers: Type.Integer({ minimum: 0 }),
    top_game: Nullable(Type.String({ description: 'The most sampled game' })),
  },
  { title: 'Stats30d', description: 'Over the streams that started in the last 30 days' },
);

/** One stream of `GET /api/streamers?id=N&streams=1`. */
export const StreamEntry = Type.Object(
  {
    started_at: Timestamp(),
    ended_at: Nullable(Timestamp()),
    minutes: Type.Integer({ minimum: 0, description: 'Whole minutes from start to end (or now)' }),
    peak_viewers: Type.Integer({ minimum: 0 }),
    avg_viewers: Type.Integer({ minimum: 0 }),
    games: Type.Array(Type.String(), { description: 'The game names seen, the most sampled first' }),
    title: Type.String({ description: 'The last one seen' }),
    samples: Type.Array(
      Type.Object({ at: Timestamp(), viewers: Type.Integer({ minimum: 0 }) }, { title: 'StreamSample' }),
      { description: 'Viewers at each successful check, oldest first (kept 30 days)' },
    ),
  },
  { title: 'Stream' },
);
export type StreamEntry = Static<typeof StreamEntry>;

/** The answer of `?streams=1`. */
export const StreamList = Type.Array(StreamEntry);
