/** Relative times in the page's language ("před 2 h", "2 hours ago") and live durations. */
import { langOf, type TimeUnit, writeRelative } from '../../../src/shared/formats.ts';

const UNITS: [TimeUnit, number][] = [
  ['year', 365 * 86400],
  ['month', 30 * 86400],
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
];

/** The page's language as Intl names it. */
export const locale = (lang: string): string => (lang === 'cs' ? 'cs-CZ' : 'en-GB');

export function relativeTime(iso: string, lang: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size)
      return writeRelative(langOf(lang), Math.trunc(seconds / size), unit, 'short');
  }
  return writeRelative(langOf(lang), 0, 'minute', 'short');
}

/** How long a stream has run: "2 h 5 min" in both languages' short units. */
export function duration(sinceIso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - new Date(sinceIso).getTime()) / 60000));
  const h = Math.floor(minutes / 60);
  return h > 0 ? `${h} h${minutes % 60 ? ` ${minutes % 60} min` : ''}` : `${minutes} min`;
}

export function exactTime(iso: string, lang: string): string {
  return new Date(iso).toLocaleString(locale(lang), { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * How long ago, in words ("14 months ago", "před 14 měsíci"): months until two years, so a
 * rating's age reads as precisely as people say it; years from then on.
 */
const AGES: [unit: TimeUnit, size: number, from: number][] = [
  ['year', 365 * 86400, 730 * 86400],
  ['month', 30 * 86400, 30 * 86400],
  ['day', 86400, 86400],
  ['hour', 3600, 3600],
  ['minute', 60, 60],
];

export function ago(iso: string, lang: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  for (const [unit, size, from] of AGES) {
    if (Math.abs(seconds) >= from) return writeRelative(langOf(lang), Math.trunc(seconds / size), unit);
  }
  return writeRelative(langOf(lang), 0, 'minute');
}
