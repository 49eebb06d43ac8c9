import { fail } from '../errors.ts';

/**
 * A `limit` query parameter (DECISIONS.md "Names and limits"): `fallback` when absent; an
 * integer from `min` to `max` otherwise, anything else (a fraction, text, out of range)
 * answers 400 `invalid_limit`, unlike the lenient numbers of bodies.
 */
export function limitParam(value: string | undefined, fallback: number, min = 1, max = 100): number {
  if (value === undefined) return fallback;
  const n = /^\s*\+?\d{1,9}\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= min && n <= max)) throw fail('invalid_limit');
  return n;
}
