import { SCORE_KEYS, type Scores } from '../shared/rules.ts';
import { clamp, toInt } from './input.ts';

export { moderatorReward, scoreSum } from '../shared/rules.ts';

/** The seven scores of a request's `r`: each clamped to 0..10, a missing one is 0. */
export function clampScores(r: unknown): Scores {
  const src = r !== null && typeof r === 'object' ? (r as Record<string, unknown>) : {};
  return Object.fromEntries(SCORE_KEYS.map((k) => [k, clamp(toInt(src[k]), 0, 10)])) as Scores;
}
