import { SCORE_KEYS, type Scores } from '../db/schema.ts';
import { clamp, toInt } from './input.ts';

/** The seven scores of a request's `r`: each clamped to 0..10, a missing one is 0. */
export function clampScores(r: unknown): Scores {
  const src = r !== null && typeof r === 'object' ? (r as Record<string, unknown>) : {};
  return Object.fromEntries(SCORE_KEYS.map((k) => [k, clamp(toInt(src[k]), 0, 10)])) as Scores;
}

export const scoreSum = (scores: Scores) => SCORE_KEYS.reduce((sum, k) => sum + scores[k], 0);

/** SPEC.md's moderator reward: round(30 + sum / 70 * 100) when evaluated, else 0. */
export const moderatorReward = (sum: number) => (sum > 0 ? Math.round(30 + (sum / 70) * 100) : 0);
