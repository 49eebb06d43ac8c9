import { zoneOffset } from '../lib/time-zone.ts';
import { MAIL_LIMITS } from '../shared/mail.ts';

/**
 * The weekly digest's slots: Monday 08:00 on the wall clock of the service's time zone (TZ),
 * as instants, daylight saving included (lib/time-zone.ts reads the zone's rules).
 */

const DAY = 24 * 60 * 60_000;

/** The zone's calendar day at the instant `ms`. */
function wallClock(ms: number, timeZone: string) {
  const local = new Date(ms + zoneOffset(timeZone, ms));
  return { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate() };
}

/** The instant the zone's wall clock shows `y-m-d h:00` (the later one when it shows it twice). */
function instantOf(y: number, m: number, d: number, hour: number, timeZone: string): number {
  const guess = Date.UTC(y, m - 1, d, hour);
  const first = guess - zoneOffset(timeZone, guess);
  return guess - zoneOffset(timeZone, first);
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
