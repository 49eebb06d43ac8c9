import { type Answer, jsonAnswer, makeAnswer } from '../cache/answer.ts';
import type { AppContext } from '../context.ts';
import { fail } from '../errors.ts';
import { loadIcal } from '../lib/lazy-modules.ts';
import { SITE_NAME } from '../shared/site.ts';
import { streamerPath } from '../shared/rules.ts';
import { publicName } from '../catalogue/public-view.ts';
import { upcoming, type UpcomingSegment } from './queries.ts';

export const CALENDAR_TYPE = 'text/calendar; charset=utf-8';
/** Calendar apps ask again now and then: by ETag, and a 304 costs nothing. */
const CALENDAR_CACHE_CONTROL = 'public, no-cache';

/** The answer cache's keys: the upcoming streams, and the site's or one streamer's calendar. */
export const upcomingKey = (days: number): string => `schedule:json:${days}`;
export const calendarKey = (days: number, streamerId?: number): string =>
  streamerId === undefined ? `schedule:ics:${days}` : `schedule:ics:${streamerId}:${days}`;

/**
 * `GET /api/schedule?days=D` (DECISIONS.md "Schedules"), kept in the one answer cache per
 * `days` until a write or the clock (a segment ends, a later one comes within `days`) makes it
 * stale.
 */
export function upcomingAnswer(ctx: AppContext, days: number): Promise<Answer> {
  return ctx.answers.get(upcomingKey(days), async (version) => {
    const { segments, expires } = await upcoming(ctx.db, ctx.clock.now(), days);
    const items = segments.map(({ uid: _uid, ...item }) => item);
    return jsonAnswer(items, version, false, expires);
  });
}

/**
 * RFC 5545's TEXT (3.3.11): ical-generator escapes SUMMARY but writes the calendar's NAME and
 * X-WR-CALNAME as given. A name has no line breaks (names are one line).
 */
const icalText = (text: string): string => text.replace(/[\\;,]/g, (c) => `\\${c}`);

/**
 * A VEVENT's SUMMARY: the streamer's name and the title; an untitled segment (a Twitch one with
 * only its category) shows its game in the title's place, so that a calendar says what it is.
 */
function summaryOf(s: UpcomingSegment): string {
  const what = s.title !== '' ? s.title : s.game;
  return what === '' ? s.streamer_name : `${s.streamer_name}: ${what}`;
}

/**
 * The segments as iCalendar (RFC 5545, written by ical-generator): one VEVENT per segment, its
 * UID the segment's own (stable across reads and edits) at the site's host, DTSTART and DTEND in
 * UTC, SUMMARY the streamer's name and the title (summaryOf), URL the streamer's page.
 */
function calendarOf(ctx: AppContext, name: string, segments: UpcomingSegment[]): string {
  const base = ctx.config.baseUrl;
  const host = new URL(base).host;
  const stamp = ctx.clock.now();
  const calendar = loadIcal()({ name: icalText(name), prodId: { company: host, product: 'schedule' } });
  for (const s of segments) {
    calendar.createEvent({
      id: `${s.uid}@${host}`,
      start: new Date(s.start),
      end: new Date(s.end),
      stamp,
      summary: summaryOf(s),
      url: base + streamerPath(s.streamer_id, s.streamer_name),
    });
  }
  return calendar.toString();
}

/** `GET /schedule.ics`: the site's upcoming streams, kept as `GET /api/schedule` is. */
export function siteCalendar(ctx: AppContext, days: number): Promise<Answer> {
  return ctx.answers.get(calendarKey(days), async (version) => {
    const { segments, expires } = await upcoming(ctx.db, ctx.clock.now(), days);
    return makeAnswer(calendarOf(ctx, SITE_NAME, segments), {
      type: CALENDAR_TYPE,
      cacheControl: CALENDAR_CACHE_CONTROL,
      version,
      expires,
    });
  });
}

/** `GET /s/<id>/schedule.ics`: one Public view streamer's (else 404). */
export async function streamerCalendar(ctx: AppContext, id: number, days: number): Promise<Answer> {
  const name = await publicName(ctx.db, id);
  if (name === undefined) throw fail('streamer_not_found');
  return ctx.answers.get(calendarKey(days, id), async (version) => {
    const { segments, expires } = await upcoming(ctx.db, ctx.clock.now(), days, id);
    return makeAnswer(calendarOf(ctx, `${name} – ${SITE_NAME}`, segments), {
      type: CALENDAR_TYPE,
      cacheControl: CALENDAR_CACHE_CONTROL,
      version,
      expires,
    });
  });
}
