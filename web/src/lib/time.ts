/** Relative times in the page's language ("před 2 h", "2 hours ago") and live durations. */
import {
  langOf,
  type NumericDate,
  type TimeUnit,
  writeDate as writeNumericDate,
  writeRelative,
} from '../../../src/shared/formats.ts';

const UNITS: [TimeUnit, number][] = [
  ['year', 365 * 86400],
  ['month', 30 * 86400],
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
];

/** The page's language as Intl names it. */
export const locale = (lang: string): string => (lang === 'cs' ? 'cs-CZ' : 'en-GB');

/**
 * The ways the page writes a moment with words (a weekday, a month, a time zone's name), in the
 * visitor's time zone unless one is named: only Intl has those words, so these make a formatter.
 */
const WORDED = {
  /** "út 3. 12. 18:00 SEČ", "Thu 3 Dec, 18:00 CET": when a stream starts. */
  start: {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  },
  /** "středa 3. prosince": a day's heading, for a day given as its UTC noon. */
  heading: { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

/**
 * How the page writes a moment: with numbers only (src/shared/formats.ts writes those itself,
 * "3. 12. 2026 9:05" for a comment's time), or with words (WORDED).
 */
export type DateFormat = NumericDate | keyof typeof WORDED;
const worded = (format: DateFormat): format is keyof typeof WORDED => Object.hasOwn(WORDED, format);

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * `date` written in the page's language. A date with words comes from a formatter made once per
 * language and format: making one (as every `toLocaleString` with options does) costs about a
 * millisecond on a phone, and the first one the language's data, forty times that.
 */
export function writeDate(date: string | Date, lang: string, format: DateFormat): string {
  if (!worded(format)) return writeNumericDate(langOf(lang), new Date(date), format);
  const key = `${format} ${lang}`;
  let formatter = formatters.get(key);
  if (!formatter) formatters.set(key, (formatter = new Intl.DateTimeFormat(locale(lang), WORDED[format])));
  return formatter.format(new Date(date));
}

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
