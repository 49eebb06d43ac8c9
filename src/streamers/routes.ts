import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf, audit } from '../audit/queries.ts';
import { writeTransaction } from '../db/transaction.ts';
import { ratedEmbed, suggestedEmbed } from '../discord/events.ts';
import { enqueueDiscordEvent } from '../discord/queries.ts';
import { fail } from '../errors.ts';
import { writeFailure } from '../lib/db-errors.ts';
import { lockRow } from '../db/dialect.ts';
import {
  clamp,
  cleanText,
  codePointLength,
  cut,
  flag,
  parseId,
  sanitize,
  singleLine,
  toInt,
  truthy,
} from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { clampScores } from '../lib/scores.ts';
import { limit } from '../plugins/rate-limits.ts';
import { OK } from '../lib/schemas.ts';
import { assertGuestMayPost } from '../guests/gate.ts';
import { assertGuestName } from '../guests/names.ts';
import { LIMITS, moderatorReward, scoreSum } from '../shared/rules.ts';
import {
  deleteStreamer,
  findStreamerState,
  insertStreamer,
  isInAnyGroup,
  lastRatedAt,
  ratingHistory,
  saveRating,
  setCommunityLock,
  type StreamerUpdate,
  updateStreamer,
} from './queries.ts';
import { createSchema, deleteSchema, listSchema, updateSchema } from './schemas.ts';
import { mayEditDetails, mayLock, STREAMER_ROLES, teamViewPossible, viewOf } from './policy.ts';
import { itemsOf, renderedView, viewKey } from './views.ts';
import { jsonAnswer } from '../cache/answer.ts';
import { sendAnswer } from '../cache/sender.ts';

const NAME_TAKEN = { name_key: 'streamer_exists' } as const;

/** A sanitized name of at least 2 characters, else SPEC.md's 400. */
function streamerName(value: unknown): string {
  const name = sanitize(value);
  if (codePointLength(name) < 2) throw fail('invalid_streamer_name');
  return name;
}

export const streamerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, database, clock } = app;

  // The public list to a visitor without a cookie (every page load), from memory before routing.
  app.earlyAnswers.exact('/api/streamers', {
    route: '/api/streamers',
    find: (req) => (req.headers.cookie === undefined ? app.answers.peek(viewKey('public')) : undefined),
  });

  app.get(
    '/api/streamers',
    { config: { guard: STREAMER_ROLES.list }, schema: listSchema },
    async (request, reply) => {
      const { viewer, query } = request;
      const { user } = viewer;
      const inTeam = teamViewPossible(viewer) && user !== null && (await isInAnyGroup(db, user.id));
      const view = viewOf(viewer, { all: flag(query.all), inTeam });

      // Made once per change of the content, not per request (cache/answers.ts).
      const list = await renderedView(app, view);
      if (query.id === undefined) return sendAnswer(request, reply, list);
      const id = parseId(query.id);
      if (id === null) throw fail('missing_id');
      const item = itemsOf(list).find((s) => s.id === id);
      if (!item) throw fail('streamer_not_found');
      if (flag(query.history)) return ratingHistory(db, id);
      const one = await app.answers.get(`streamer:${view}:${id}`, (version) =>
        jsonAnswer(item, list.version ?? version),
      );
      return sendAnswer(request, reply, one);
    },
  );

  app.post(
    '/api/streamers',
    {
      config: {
        guard: (query) => (flag(query.admin) ? STREAMER_ROLES.add : STREAMER_ROLES.suggest),
        ...limit('suggest', (query) => flag(query.admin)),
      },
      schema: createSchema,
    },
    async (request, reply) => {
      const byAdmin = flag(request.query.admin);
      const { body, viewer } = request;
      if (!byAdmin) await assertGuestMayPost(db, request, clock.now());
      const name = streamerName(body.name);
      const platform = body.platform === 'provider_b' ? 'provider_b' : 'provider_a';
      const submitter = singleLine(body.submitter, LIMITS.submitter);
      // A guest's label may not pass for staff or for someone who signed in (it is shown to staff).
      if (!byAdmin && !viewer.user && !viewer.isAdmin) await assertGuestName(db, submitter);
      try {
        const id = await writeTransaction(database, async (trx) => {
          const id = await insertStreamer(trx, {
            name,
            platform,
            kick_name: sanitize(body.kick_name ?? body.provider_b),
            provider_a: sanitize(body.provider_a),
            added_by: byAdmin ? 'admin' : 'viewer',
            submitter,
            created_at: clock.now().toISOString(),
            guest_tag: byAdmin ? null : request.guestTag,
          });
          if (byAdmin) {
            await audit(trx, actorOf(request.viewer, clock.now()), {
              action: 'streamer.add',
              target_id: id,
              params: { name },
            });
          } else {
            const at = clock.now().toISOString();
            await enqueueDiscordEvent(trx, 'suggested', suggestedEmbed({ id, name, platform }, at), at);
          }
          return id;
        });
        return reply.code(201).send({ ok: true, id });
      } catch (err) {
        writeFailure(err, request.log, NAME_TAKEN);
      }
    },
  );

  app.put(
    '/api/streamers',
    { config: { guard: STREAMER_ROLES.rate }, schema: updateSchema },
    async (request) => {
      const { viewer, query, body } = request;
      const actor = actorOf(viewer, clock.now());
      const details = mayEditDetails(viewer);

      if (flag(query.lock)) {
        if (!mayLock(viewer)) throw fail('admin_only');
        const id = parseId(query.id);
        if (id === null) throw fail('missing_id');
        const locked = truthy(body.community_locked);
        await writeTransaction(database, async (trx) => {
          const before = await findStreamerState(trx, id);
          if (!before || !(await setCommunityLock(trx, id, locked))) throw fail('streamer_not_found');
          await audit(trx, actor, {
            action: 'streamer.lock',
            target_id: id,
            params: { name: before.name, locked },
            details: { old: before.community_locked === 1, new: locked },
          });
        });
        return OK;
      }

      const id = parseId(query.id);
      if (id === null) throw fail('missing_id');

      const scores = clampScores(body.r);
      const sum = scoreSum(scores);
      const evaluated = sum > 0 ? 1 : 0;
      const notes = cleanText(body.notes);
      const rating = {
        scores,
        notes: notes === undefined ? null : cut(notes, LIMITS.notes),
        reward: details ? clamp(toInt(body.reward), 0, LIMITS.reward) : moderatorReward(sum),
        updated_at: clock.now().toISOString(),
      };
      const status = body.status === 'live' ? 'live' : 'offline';
      const fields: StreamerUpdate = details
        ? {
            evaluated,
            ...(body.name === undefined ? {} : { name: streamerName(body.name) }),
            kick_name: sanitize(body.provider_b ?? body.kick_name),
            ...(body.provider_a === undefined ? {} : { provider_a: sanitize(body.provider_a) }),
            ...(body.platform === undefined
              ? {}
              : {
                  platform:
                    body.platform === 'provider_b' ? ('provider_b' as const) : ('provider_a' as const),
                }),
            status,
            game: singleLine(body.game, LIMITS.game),
            title: singleLine(body.title, LIMITS.title),
            // Set offline by hand: what live sync saw of the stream no longer holds.
            ...(status === 'offline' ? { viewers: null, live_since: null } : {}),
          }
        : { evaluated };

      await writeTransaction(database, async (trx) => {
        const before = await findStreamerState(trx, id);
        if (!before) throw fail('streamer_not_found');
        // Two editors of one rating: the second one, who started from an older rating, is told.
        if (body.base_at !== undefined) {
          await lockRow(trx, 'streamers', id);
          if ((await lastRatedAt(trx, id)) !== (body.base_at ?? null)) throw fail('rating_changed');
        }
        const {
          name,
          community_locked: _,
          evaluated: wasEvaluated,
          s,
          g,
          a,
          v,
          n,
          ns,
          o,
          reward,
          notes,
          ...oldFields
        } = before;
        const oldScores = s === null ? null : { s, g, a, v, n, ns, o };
        // The record is written first: when the change then fails, both roll back together.
        await audit(trx, actor, {
          action: details ? 'streamer.edit' : 'streamer.rate',
          target_id: id,
          params: { name, from: oldScores ? scoreSum(oldScores as typeof scores) : null, to: sum },
          details: {
            old: { r: oldScores, reward, notes, ...(details ? { name, ...oldFields } : {}) },
            new: { r: scores, reward: rating.reward, notes: rating.notes, ...(details ? fields : {}) },
          },
        });
        await saveRating(trx, id, rating);
        await updateStreamer(trx, id, fields).catch((err: unknown) =>
          writeFailure(err, request.log, NAME_TAKEN),
        );
        // `rated`: the streamer entered the Public view, or its total changed there.
        const oldSum = oldScores && wasEvaluated === 1 ? scoreSum(oldScores as typeof scores) : null;
        if (sum > 0 && oldSum !== sum) {
          const at = rating.updated_at;
          const embed = ratedEmbed({ id, name: fields.name ?? name }, sum, oldSum, at);
          await enqueueDiscordEvent(trx, 'rated', embed, at);
        }
      });
      return OK;
    },
  );

  app.delete(
    '/api/streamers',
    { config: { guard: STREAMER_ROLES.delete }, schema: deleteSchema },
    async (request) => {
      const id = parseId(request.query.id);
      if (id === null) throw fail('missing_id');
      await writeTransaction(database, async (trx) => {
        const before = await findStreamerState(trx, id);
        if (!before || !(await deleteStreamer(trx, id))) throw fail('streamer_not_found');
        await audit(trx, actorOf(request.viewer, clock.now()), {
          action: 'streamer.delete',
          target_id: id,
          params: { name: before.name },
        });
      });
      return OK;
    },
  );

  methodNotAllowed(app, '/api/streamers', ['GET', 'POST', 'PUT', 'DELETE']);
};
