import { AUDIENCE, averageTenths, LIMITS, TOTAL_MAX } from '../shared/rules.ts';

/**
 * DECISIONS.md "Audience score you can trust", written once: what the streamer items say of
 * their votes (the histogram, `divergent`) and the audience ranking's order. Pure: the list's
 * one query (streamers/queries.ts) counts the votes, the views (streamers/views.ts) ask here.
 */

/** A streamer's votes: how many and their sum. */
export interface Tally {
  votes: number;
  sum: number;
}

/** A streamer's counted votes as the list's rows carry them: sum, count and histogram. */
export interface Votes {
  audience_sum: number;
  audience_votes: number;
  audience_histogram: number[];
}

/**
 * The votes that count: every vote but the one of the user who speaks for the streamer
 * (catalogue/speaks-for.ts; issue 45, item 14). Such a user may not vote (votes/vote.ts), and a
 * vote given before they spoke for it stays stored but is left out here, for as long as they
 * do: every figure of the audience (score, votes, histogram, divergent, the ranking and the
 * site's mean) is made from what this answers. `own`: that user's score, if they voted.
 */
export function countedVotes<T extends Votes>(row: T, own: number | undefined): T {
  if (own === undefined) return row;
  return {
    ...row,
    audience_sum: row.audience_sum - own,
    audience_votes: row.audience_votes - 1,
    audience_histogram: row.audience_histogram.map((n, i) => (i === own - 1 ? n - 1 : n)),
  };
}

/** The histogram's columns, the votes for 1 to 10, as the list's query names them. */
export const HISTOGRAM_COLUMNS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7', 'h8', 'h9', 'h10'] as const;

/**
 * Whether staff and audience disagree: at least 5 votes, and the audience score (to one
 * decimal, as the items carry it) at least 3 away from the staff total on ten (`sum / 7`).
 * In integers, so the boundary is exact.
 */
export function isDivergent(tally: Tally, staffSum: number): boolean {
  if (tally.votes < AUDIENCE.divergentFrom) return false;
  // Both sides times 10 × 70: the audience's tenths × 70, the staff's sum × 10 (on ten) × 10.
  const audience = averageTenths(tally.sum, tally.votes) * TOTAL_MAX;
  const staff = staffSum * LIMITS.score * 10;
  return Math.abs(audience - staff) >= AUDIENCE.divergentGap * 10 * TOTAL_MAX;
}

/**
 * The audience ranking's comparison, highest first: the Bayesian average `(v × R + m × C) /
 * (v + m)` = `(sum + m × S / T) / (v + m)`, with `S` and `T` the sum and count of every vote
 * on the site. Compared across, in integers (BigInt: the products outgrow 2^53 on a big
 * site), so equal averages tie exactly and fall to the caller's next key. Streamers without
 * votes come after every streamer with some (0 = a tie among them).
 */
export function byBayesianAverage(site: Tally): (a: Tally, b: Tally) => number {
  const m = BigInt(AUDIENCE.prior);
  const prior = m * BigInt(site.sum);
  const total = BigInt(site.votes);
  return (a, b) => {
    if (a.votes === 0 || b.votes === 0) return (a.votes === 0 ? 1 : 0) - (b.votes === 0 ? 1 : 0);
    const left = (BigInt(a.sum) * total + prior) * (BigInt(b.votes) + m);
    const right = (BigInt(b.sum) * total + prior) * (BigInt(a.votes) + m);
    return left > right ? -1 : left < right ? 1 : 0;
  };
}

/** The site's votes: the sum and count over every streamer. */
export const siteTally = (tallies: readonly Tally[]): Tally =>
  tallies.reduce((all, t) => ({ votes: all.votes + t.votes, sum: all.sum + t.sum }), { votes: 0, sum: 0 });
