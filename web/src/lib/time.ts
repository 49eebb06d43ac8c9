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

/** The ways the page writes a moment, in the visitor's time zone unless one is named. */
const DATE_FORMATS = {
  /** "3. 12. 2026 18:00", "3 Dec 2026, 18:00": when a comment was written, when a block ends. */
  exact: { dateStyle: 'medium', timeStyle: 'short' },
  /** "03.12.26 18:00", "03/12/2026, 18:00": a row of the rating history's table. */
  short: { dateStyle: 'short', timeStyle: 'short' },
  /** "3. 12. 2026", "03/12/2026": the ends of the rating history's chart. */
  day: { year: 'numeric', month: 'numeric', day: 'numeric' },
  /** "9:05" (Czech), "09:05" (English): when a stream began. */
  time: { timeStyle: 'short' },
  /** "09:05": a time of day in a schedule. */
  clock: { hour: '2-digit', minute: '2-digit' },
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
export type DateFormat = keyof typeof DATE_FORMATS;

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * `date` written in the page's language. Each formatter is made once per language: making one
 * (as every `toLocaleString` with options does) costs about a millisecond on a phone, and a
 * streamer's page writes a hundred dates as it hydrates.
 */
export function writeDate(date: string | Date, lang: string, format: DateFormat): string {
  const key = `${format} ${lang}`;
  let formatter = formatters.get(key);
  if (!formatter)
    formatters.set(key, (formatter = new Intl.DateTimeFormat(locale(lang), DATE_FORMATS[format])));
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
