import { SCORE_KEYS, type Scores, scoreSum } from '../shared/rules.ts';

/**
 * What the staff's reviews add up to (DECISIONS.md "Staff reviews"), in integers so that a
 * boundary is exact: the median per criterion, half up, and the spread, the population
 * standard deviation of the reviews' sums (the reviews are every rater there is, not a sample
 * of them), to one decimal, half up. Pure: over the non-abstaining reviews only.
 */

/** The median of integers, half up: of an even count, the mean of the middle two rounded up at .5. */
export function medianHalfUp(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length % 2 === 1) return sorted[mid] ?? 0;
  const sum = (sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0);
  return Math.floor((sum + 1) / 2);
}

/** Each criterion's median over these scores; null without any. */
export function medianScores(reviews: readonly Scores[]): Scores | null {
  if (reviews.length === 0) return null;
  return Object.fromEntries(SCORE_KEYS.map((k) => [k, medianHalfUp(reviews.map((r) => r[k]))])) as Scores;
}

/**
 * The population standard deviation of the sums, to one decimal, half up; null without any.
 * With n sums, Σ and Σ² their sum and sum of squares, ten times the deviation is
 * √(100 (nΣ² − Σ²)) / n; the answer is t tenths for the largest t with (2t − 1)² n² ≤ 400 (nΣ² − Σ²).
 */
export function spreadOf(reviews: readonly Scores[]): number | null {
  const n = reviews.length;
  if (n === 0) return null;
  const sums = reviews.map(scoreSum);
  const total = sums.reduce((a, b) => a + b, 0);
  const squares = sums.reduce((a, b) => a + b * b, 0);
  const bound = 400 * (n * squares - total * total);
  let t = Math.max(0, Math.floor((Math.sqrt(bound) / n + 1) / 2) - 1);
  while ((2 * (t + 1) - 1) ** 2 * n * n <= bound) t++;
  return t / 10;
}
