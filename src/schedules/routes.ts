import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendAnswer } from '../cache/sender.ts';
import { fail } from '../errors.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { CALENDAR_PATH, SCHEDULE } from '../shared/schedules.ts';
import { calendarKey, siteCalendar, streamerCalendar, upcomingAnswer, upcomingKey } from './answers.ts';
import { siteCalendarSchema, streamerCalendarSchema, upcomingSchema } from './schemas.ts';

const daysOf = (raw: string | undefined): number => (raw === undefined ? SCHEDULE.daysDefault : Number(raw));

/**
 * The `days` of an address answered before routing: none, or `?days=N` as the route reads it
 * (1 to 14 in plain digits); null for any other query, which the route answers.
 */
function earlyDays(query: string | undefined): number | null {
  if (query === undefined) return SCHEDULE.daysDefault;
  const days = /^days=([1-9]\d?)$/.exec(query)?.[1];
  return days !== undefined && Number(days) <= SCHEDULE.daysMax ? Number(days) : null;
}

/** DECISIONS.md "Fifth wave" → "Schedules": the upcoming streams and the calendars, for anyone. */
export const scheduleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const options = { config: { guard: 'public' as const } };

  // The week (every Upcoming page) and the calendars (which calendar apps poll), from memory
  // before routing once a route below has made them: the same keys, so the same answers. The
  // week reads the session like any API route: only a request without a cookie.
  const kept = (key: string | null) => (key === null ? undefined : app.answers.peek(key));
  const split = (url: string) => url.split('?', 2) as [string, string | undefined];
  app.earlyAnswers.prefixed('/api/schedule', {
    route: '/api/schedule',
    find: (req, url) => {
      const [path, query] = split(url);
      if (path !== '/api/schedule' || req.headers.cookie !== undefined) return undefined;
      const days = earlyDays(query);
      return kept(days === null ? null : upcomingKey(days));
    },
  });
  app.earlyAnswers.prefixed(CALENDAR_PATH, {
    route: CALENDAR_PATH,
    find: (_req, url) => {
      const [path, query] = split(url);
      const days = path === CALENDAR_PATH ? earlyDays(query) : null;
      return kept(days === null ? null : calendarKey(days));
    },
  });
  app.earlyAnswers.prefixed('/s/', {
    route: '/s/:id/schedule.ics',
    find: (_req, url) => {
      const [path, query] = split(url);
      const id = /^\/s\/([1-9]\d{0,14})\/schedule\.ics$/.exec(path)?.[1];
      const days = id === undefined ? null : earlyDays(query);
      return kept(days === null ? null : calendarKey(days, Number(id)));
    },
  });

  app.get('/api/schedule', { ...options, schema: upcomingSchema }, async (request, reply) =>
    sendAnswer(request, reply, await upcomingAnswer(app.ctx, daysOf(request.query.days))),
  );

  app.get(
    CALENDAR_PATH,
    { config: { ...options.config, session: false as const }, schema: siteCalendarSchema },
    async (request, reply) =>
      sendAnswer(request, reply, await siteCalendar(app.ctx, daysOf(request.query.days))),
  );

  app.get(
    '/s/:id/schedule.ics',
    { config: { ...options.config, session: false as const }, schema: streamerCalendarSchema },
    async (request, reply) => {
      if (!/^\d{1,15}$/.test(request.params.id)) throw fail('streamer_not_found');
      const answer = await streamerCalendar(app.ctx, Number(request.params.id), daysOf(request.query.days));
      return sendAnswer(request, reply, answer);
    },
  );

  methodNotAllowed(app, '/api/schedule', ['GET']);
};
