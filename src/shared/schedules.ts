/**
 * DECISIONS.md "Fifth wave" → "Schedules": the limits of a schedule, written once for the
 * service and the page (pure: the page imports it).
 */
export const SCHEDULE = {
  /** Hand-kept segments a streamer may have at most. */
  maxSegments: 50,
  /** A hand-kept segment starts within this many days from now. */
  horizonDays: 60,
  /** A segment is at most this long. */
  maxHours: 24,
  /** A segment's title is cut to this many characters. */
  titleMax: 140,
  /** `?schedule=1` shows this many days ahead. */
  shownDays: 14,
  /** `GET /api/schedule?days=D`: 1 to 14, 7 unless given. */
  daysMax: 14,
  daysDefault: 7,
  /** `GET /api/schedule` and `/schedule.ics` answer at most this many segments. */
  listMax: 500,
  /** Live sync reads a Twitch streamer's schedule at most this often. */
  readEveryMs: 60 * 60_000,
} as const;

const HOUR_MS = 3_600_000;

/** What is wrong with one hand-kept segment, or null. */
export type SegmentProblem = 'order' | 'length' | 'past' | 'horizon';

/**
 * The rule one hand-kept segment meets (DECISIONS.md "Schedules"), for the service's check and
 * the page's editor alike: `start` before `end`, at most `maxHours` long, ending after now and
 * starting within `horizonDays`. Times in milliseconds.
 */
export function segmentProblem(from: number, to: number, now: number): SegmentProblem | null {
  if (from >= to) return 'order';
  if (to - from > SCHEDULE.maxHours * HOUR_MS) return 'length';
  if (to <= now) return 'past';
  if (from > now + SCHEDULE.horizonDays * 24 * HOUR_MS) return 'horizon';
  return null;
}

export const SCHEDULE_SOURCES = ['provider', 'manual'] as const;
export type ScheduleSource = (typeof SCHEDULE_SOURCES)[number];

/** The streamer's iCalendar feed, and the site's. */
export const streamerCalendarPath = (id: number): string => `/s/${id}/schedule.ics`;
export const CALENDAR_PATH = '/schedule.ics';
