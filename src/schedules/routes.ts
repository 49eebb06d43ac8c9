import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendAnswer } from '../cache/sender.ts';
import { fail } from '../errors.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { CALENDAR_PATH, SCHEDULE } from '../shared/schedules.ts';
import { siteCalendar, streamerCalendar, upcomingAnswer } from './answers.ts';
import { siteCalendarSchema, streamerCalendarSchema, upcomingSchema } from './schemas.ts';

const daysOf = (raw: string | undefined): number => (raw === undefined ? SCHEDULE.daysDefault : Number(raw));

/** DECISIONS.md "Fifth wave" → "Schedules": the upcoming streams and the calendars, for anyone. */
export const scheduleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const options = { config: { guard: 'public' as const } };

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
