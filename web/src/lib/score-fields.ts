import { SCORE_KEYS, type ScoreKey, type Scores } from '../../../src/shared/rules.ts';

/** The seven score fields of a form (ScoreInputs.svelte): null while a field is empty. */
export type ScoreFields = Record<ScoreKey, number | null>;

/** Every field empty: a score nobody chose is not a 0 (the fields are required). */
export const emptyScores = (): ScoreFields =>
  Object.fromEntries(SCORE_KEYS.map((k) => [k, null])) as ScoreFields;

/** Every score given, or null (the browser asks for the missing ones before a submit). */
export const givenScores = (scores: ScoreFields): Scores | null =>
  SCORE_KEYS.every((k) => typeof scores[k] === 'number') ? (scores as Scores) : null;
