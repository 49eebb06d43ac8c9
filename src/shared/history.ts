/**
 * Stream history's numbers (issue 28, DECISIONS.md "Fourth wave / Stream history"), shared by
 * the service and the page.
 */
export const HISTORY = {
  /** `?streams=1&limit=L`: L from 1 to 100, 20 unless given. */
  streamsLimitMax: 100,
  streamsLimitDefault: 20,
  /** `stats_30d` counts streams that started in the last this many days. */
  statsDays: 30,
  /** Samples are kept this many days, streams this many. */
  samplesDays: 30,
  streamsDays: 365,
  /** A provider's viewer count above this is taken as this (nonsense guard). */
  maxViewers: 10_000_000,
  /** Game names one stream keeps counts for; a stream that changes game more keeps the first ones. */
  gamesPerStream: 20,
  /** An open stream not seen live for this long (sync off, streamer moved) is ended by the next round. */
  staleHours: 6,
} as const;

/** Hours to one decimal, half up, from whole seconds (integer arithmetic: no float drift). */
export const hoursOf = (seconds: number): number => Math.floor((seconds * 10 + 1800) / 3600) / 10;

/** The rounded mean of `count` samples summing `sum` (half up), 0 without samples. */
export const meanOf = (sum: number, count: number): number =>
  count === 0 ? 0 : Math.floor((2 * sum + count) / (2 * count));
