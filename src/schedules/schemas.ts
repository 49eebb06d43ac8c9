import { Type } from 'typebox';
import type { ErrorCode } from '../errors.ts';
import { DOCUMENTED, errors, Nullable, StringEnum, Timestamp } from '../lib/schemas.ts';
import { SCHEDULE, SCHEDULE_SOURCES } from '../shared/schedules.ts';

/** What `PUT /api/streamers?id=N&schedule=1` takes (schedules/rules.ts `manualSegments` decides). */
export const SegmentsInputDoc = Type.Array(
  Type.Object({
    start: Type.String({ format: 'date-time' }),
    end: Type.String({ format: 'date-time', description: 'After `start`, at most 24 hours later' }),
    title: Type.Optional(Type.String({ description: `Single line, cut to ${SCHEDULE.titleMax}` })),
  }),
  {
    maxItems: SCHEDULE.maxSegments,
    description:
      `Required with \`schedule\` (provider_b streamers; an empty list removes every segment): every hand-kept ` +
      `segment, replaced; at most ${SCHEDULE.maxSegments}, ` +
      `each ending after now and starting within ${SCHEDULE.horizonDays} days, no two starting at the same moment; else 400 ` +
      '`Invalid schedule`',
    'x-error-code': 'invalid_schedule' satisfies ErrorCode,
  },
);

export const ScheduleSegment = Type.Object(
  {
    start: Timestamp(),
    end: Timestamp(),
    title: Type.String(),
    game: Type.String(),
    canceled: Type.Boolean(),
  },
  { title: 'ScheduleSegment' },
);

/** `GET /api/streamers?id=N&schedule=1`. */
export const ScheduleAnswer = Type.Object(
  {
    segments: Type.Array(ScheduleSegment, {
      description: `The next ${SCHEDULE.shownDays} days, earliest first`,
    }),
    vacation: Nullable(Type.Object({ start: Timestamp(), end: Timestamp() }, { title: 'Vacation' })),
    source: Nullable(StringEnum(SCHEDULE_SOURCES)),
  },
  { title: 'StreamerSchedule' },
);

export const UpcomingItem = Type.Object(
  {
    streamer_id: Type.Integer(),
    streamer_name: Type.String(),
    start: Timestamp(),
    end: Timestamp(),
    title: Type.String(),
    game: Type.String(),
  },
  { title: 'UpcomingStream' },
);

/** `days`: 1 to 14 in digits (leading zeros too), else 400 `invalid_days`. */
export const DaysQuery = Type.Object({
  days: Type.Optional(
    Type.String({
      pattern: `^0*(?:${Array.from({ length: SCHEDULE.daysMax }, (_, i) => i + 1).join('|')})$`,
      errorCode: 'invalid_days' satisfies ErrorCode,
      [DOCUMENTED]: {
        ...Type.Integer({
          minimum: 1,
          maximum: SCHEDULE.daysMax,
          description: `How many days ahead (default ${SCHEDULE.daysDefault})`,
        }),
        'x-error-code': 'invalid_days',
      },
    }),
  ),
});

const calendar = {
  description: 'An iCalendar (RFC 5545) feed',
  content: { 'text/calendar': { schema: Type.String({ description: 'iCalendar' }) } },
};

export const upcomingSchema = {
  summary:
    "The Public view's streamers' scheduled streams (not canceled, not ended) starting within `days`, " +
    `earliest first, at most ${SCHEDULE.listMax}`,
  querystring: DaysQuery,
  response: { 200: Type.Array(UpcomingItem), 304: Type.Null(), ...errors(400) },
};

export const siteCalendarSchema = {
  summary: 'The same as `GET /api/schedule` as iCalendar: one VEVENT per segment, stable UIDs, UTC times',
  querystring: DaysQuery,
  response: { 200: calendar, 304: { description: 'Not modified (If-None-Match)' }, ...errors(400) },
};

export const streamerCalendarSchema = {
  summary: "One streamer's scheduled streams as iCalendar (Public view only, else 404)",
  querystring: DaysQuery,
  params: Type.Object({ id: Type.String({ maxLength: 200 }) }),
  response: { 200: calendar, 304: { description: 'Not modified (If-None-Match)' }, ...errors(400, 404) },
};
