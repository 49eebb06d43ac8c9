import { MAIL_LIMITS } from '../shared/mail.ts';

/**
 * The weekly digest's slots: Monday 08:00 on the wall clock of the service's time zone (TZ),
 * as instants. Pure: Intl tells the zone's offset at an instant, daylight saving included.
 */

const DAY = 24 * 60 * 60_000;

/** A zone's wall-clock format, made at its first use (every look for work asks for the slot). */
const formats = new Map<string, Intl.DateTimeFormat>();

function wallClock(ms: number, timeZone: string) {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  return Object.fromEntries(
    format.formatToParts(new Date(ms)).map((p) => [p.type, Number(p.value)]),
  ) as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;
}

/** The zone's offset from UTC at the instant `ms`, in milliseconds. */
function offsetAt(ms: number, timeZone: string): number {
  const p = wallClock(ms, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The instant the zone's wall clock shows `y-m-d h:00` (the later one when it shows it twice). */
function instantOf(y: number, m: number, d: number, hour: number, timeZone: string): number {
  const guess = Date.UTC(y, m - 1, d, hour);
  const first = guess - offsetAt(guess, timeZone);
  return guess - offsetAt(first, timeZone);
}

/** The last digest slot at or before `now`. */
export function digestSlot(now: Date, timeZone: string): Date {
  const p = wallClock(now.getTime(), timeZone);
  const weekday = new Date(Date.UTC(p.year, p.month - 1, p.day)).getUTCDay();
  const back = (weekday - MAIL_LIMITS.digestDay + 7) % 7;
  for (const extra of [0, 7]) {
    const day = new Date(Date.UTC(p.year, p.month - 1, p.day) - (back + extra) * DAY);
    const slot = instantOf(
      day.getUTCFullYear(),
      day.getUTCMonth() + 1,
      day.getUTCDate(),
      MAIL_LIMITS.digestHour,
      timeZone,
    );
    if (slot <= now.getTime()) return new Date(slot);
  }
  throw new Error('unreachable: a Monday 08:00 within the last 14 days');
}

/** The week a slot's digest tells of: from the slot before it up to it. */
export const digestWeek = (slot: Date, timeZone: string) => ({
  from: digestSlot(new Date(slot.getTime() - 1), timeZone),
  to: slot,
});
