import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { API_CACHE_CONTROL, JSON_TYPE, jsonAnswer, makeAnswer } from '../cache/answer.ts';
import { sendAnswer } from '../cache/sender.ts';
import { fail } from '../errors.ts';
import { listStreams } from '../history/queries.ts';
import { StreamList } from '../history/schemas.ts';
import { keepAnswer } from '../idempotency/keep.ts';
import { assertScheduleKeeper, keepSchedule } from '../schedules/keep.ts';
import { readSchedule } from '../schedules/queries.ts';
import { ScheduleAnswer } from '../schedules/schemas.ts';
import { flag, parseId, truthy } from '../lib/input.ts';
import { HISTORY } from '../shared/history.ts';
import { AUDIENCE_SORT } from '../shared/rules.ts';
import { SCHEDULE } from '../shared/schedules.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { OK, pageLimit } from '../lib/schemas.ts';
import { limit } from '../plugins/rate-limits.ts';
import { createStreamer } from './create.ts';
import { lockStreamer, removeStreamer } from './manage.ts';
import { mayAdd, mayDelete, mayLock, mayRate, mayRemoveReply, STREAMER_ROLES } from './policy.ts';
import { ratingHistory } from './rating-queries.ts';
import { rateStreamer } from './rate.ts';
import { removeReply, replierOf, writeReply } from './reply.ts';
import { createSchema, deleteSchema, listSchema, updateSchema } from './route-schemas.ts';
import { HistoryEntry } from './schemas.ts';
import { itemsOf, listedItems, renderedView, viewFor, viewKey } from './views.ts';

/** `?streams=1`'s schema as Fastify's compilers take it (compiled once: they key by the object). */
const STREAMS_ANSWER = { ...StreamList };
const SCHEDULE_ANSWER = { ...ScheduleAnswer };
const HISTORY_ANSWER = { ...Type.Array(HistoryEntry) };

/**
 * A one streamer's variant made for this request, not kept (`history`, `streams`, `schedule`),
 * by its own member's serializer (for a union, fast-json-stringify picks the member by validating
 * the answer against each, ten times the cost of writing a year's `?streams=1`; docs/benchmarks.md)
 * and answered as every `GET /api/streamers` is (DECISIONS.md "Caching"): an ETag and
 * `private, no-cache`, 304 to a matching `If-None-Match`.
 */
function sendMade(
  request: FastifyRequest,
  reply: FastifyReply,
  schema: Record<string, unknown>,
  data: object,
) {
  const json = reply.compileSerializationSchema(schema)(data as Record<string, unknown>);
  return sendAnswer(
    request,
    reply,
    makeAnswer(json, { type: JSON_TYPE, cacheControl: API_CACHE_CONTROL, version: null }),
  );
}

export const streamerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;

  // The public list to a visitor without a cookie (every page load), from memory before routing.
  app.earlyAnswers.exact('/api/streamers', {
    route: '/api/streamers',
    find: (req) => (req.headers.cookie === undefined ? app.answers.peek(viewKey('public')) : undefined),
  });
  // The audience ranking is the Public view's streamers whoever asks: kept once, answered the same way.
  app.earlyAnswers.exact(`/api/streamers?sort=${AUDIENCE_SORT}`, {
    route: '/api/streamers',
    find: (req) => (req.headers.cookie === undefined ? app.answers.peek(viewKey('audience')) : undefined),
  });

  app.get(
    '/api/streamers',
    { config: { guard: STREAMER_ROLES.list }, schema: listSchema },
    async (request, reply) => {
      const { viewer, query } = request;
      const limit = pageLimit(query.limit, HISTORY.streamsLimitDefault);
      // The schema let only `audience` through; it orders the list, an item is the same.
      if (query.sort !== undefined && query.id === undefined) {
        return sendAnswer(request, reply, await renderedView(app.ctx, 'audience'));
      }
      // Made once per change of the content, not per request (cache/answers.ts).
      const view = viewFor(viewer, flag(query.all));
      if (query.id === undefined) return sendAnswer(request, reply, await renderedView(app.ctx, view));
      const id = parseId(query.id);
      if (id === null) throw fail('missing_id');
      const list = await listedItems(app.ctx, view);
      const item = itemsOf(list).find((s) => s.id === id);
      if (!item) throw fail('streamer_not_found');
      if (flag(query.history)) return sendMade(request, reply, HISTORY_ANSWER, await ratingHistory(db, id));
      if (flag(query.schedule)) {
        const days = flag(query.ahead) ? SCHEDULE.horizonDays : SCHEDULE.shownDays;
        return sendMade(request, reply, SCHEDULE_ANSWER, await readSchedule(db, id, app.clock.now(), days));
      }
      if (flag(query.streams)) {
        return sendMade(request, reply, STREAMS_ANSWER, await listStreams(db, id, limit, app.clock.now()));
      }
      const one = await app.answers.get(`streamer:${view}:${id}`, (version) =>
        jsonAnswer(item, list.version ?? version, false, list.expires),
      );
      return sendAnswer(request, reply, one);
    },
  );

  app.post(
    '/api/streamers',
    {
      config: {
        guard: (query) => (flag(query.admin) ? mayAdd : STREAMER_ROLES.suggest),
        contribution: true,
        idempotencyKey: true,
        ...limit('suggest', (query) => flag(query.admin)),
      },
      schema: createSchema,
    },
    async (request, reply) => {
      const keep = keepAnswer(request, reply, 201);
      const answer = await createStreamer(app.ctx, request, request.body, flag(request.query.admin), keep);
      return reply.code(201).send(answer);
    },
  );

  app.put(
    '/api/streamers',
    {
      config: {
        guard: (query) =>
          flag(query.reply) ? STREAMER_ROLES.reply : flag(query.schedule) ? STREAMER_ROLES.schedule : mayRate,
        contribution: true,
      },
      schema: updateSchema,
      // The lock is the administrator's: a moderator's request is refused before its body is
      // read, malformed or not (DECISIONS.md "Errors": the role before the input); so is
      // whoever may write no reply or schedule at all (the row's rule is the operation's).
      preParsing: async (request, _reply, payload) => {
        const { query, viewer } = request;
        if (flag(query.lock) && !mayLock(viewer)) throw fail('admin_only');
        if (flag(query.reply)) replierOf(viewer);
        else if (flag(query.schedule)) assertScheduleKeeper(viewer);
        return payload;
      },
    },
    async (request) => {
      const { viewer, query, body } = request;
      // Who may write a reply or a schedule depends on the streamer: the operation asks for
      // the id once the caller has passed (401 before 400).
      if (flag(query.reply)) {
        await writeReply(app.ctx, viewer, parseId(query.id), body.body);
        return OK;
      }
      if (flag(query.schedule)) {
        await keepSchedule(app.ctx, viewer, parseId(query.id), body.segments);
        return OK;
      }
      const id = parseId(query.id);
      if (id === null) throw fail('missing_id');
      if (flag(query.lock)) await lockStreamer(app.ctx, viewer, id, truthy(body.community_locked));
      else await rateStreamer(app.ctx, request, id, body);
      return OK;
    },
  );

  app.delete(
    '/api/streamers',
    {
      config: {
        guard: (query) => (flag(query.reply) ? mayRemoveReply : mayDelete),
      },
      schema: deleteSchema,
    },
    async (request) => {
      const id = parseId(request.query.id);
      if (id === null) throw fail('missing_id');
      if (flag(request.query.reply)) await removeReply(app.ctx, request.viewer, id);
      else await removeStreamer(app.ctx, request.viewer, id);
      return OK;
    },
  );

  methodNotAllowed(app, '/api/streamers', ['GET', 'POST', 'PUT', 'DELETE']);
};
