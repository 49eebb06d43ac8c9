import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { isUniqueViolation } from '../db/dialect.ts';
import { writeTransaction } from '../db/transaction.ts';
import { badRequest, conflict, DomainError, notFound } from '../errors.ts';
import {
  clamp,
  codePointLength,
  cut,
  flag,
  parseId,
  sanitize,
  stripControls,
  text,
  toInt,
  truthy,
  cleanText,
} from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { errors, Ok } from '../lib/schemas.ts';
import { clampScores, moderatorReward, scoreSum } from '../lib/scores.ts';
import { record } from '../audit/queries.ts';
import {
  deleteStreamer,
  findStreamerState,
  insertStreamer,
  isInAnyGroup,
  listStreamers,
  nameKey,
  nameTaken,
  saveRating,
  setCommunityLock,
  type StreamerListRow,
  updateStreamer,
} from './queries.ts';
import { Created, CreateBody, CreateQuery, IdQuery, ListQuery, StreamerItem, UpdateBody } from './schemas.ts';
import { Type } from 'typebox';

type View = 'full' | 'team' | 'public';

const byEvaluatedThenName = (a: StreamerListRow, b: StreamerListRow) =>
  b.evaluated - a.evaluated || compareNames(a, b);
const compareNames = (a: StreamerListRow, b: StreamerListRow) =>
  a.name_key < b.name_key ? -1 : a.name_key > b.name_key ? 1 : a.id - b.id;

function present(row: StreamerListRow, view: View): Static<typeof StreamerItem> {
  return {
    id: row.id,
    name: row.name,
    platform: row.platform,
    provider_b: row.kick_name,
    kick_name: row.kick_name,
    status: row.status,
    game: row.game,
    title: row.title,
    evaluated: row.evaluated === 1,
    community_locked: row.community_locked === 1,
    added_by: view === 'full' ? row.added_by : 'admin',
    r: row.scores,
    reward: row.reward,
    team_id: row.team_id,
    team_name: row.team_name,
    ...(view === 'full' && row.notes !== null ? { notes: row.notes } : {}),
  };
}

/** A single-line text field: controls removed, trimmed, cut. */
const line = (value: unknown, max: number) => cut(stripControls(text(value) ?? '').trim(), max);

export async function streamerRoutes(app: FastifyInstance) {
  const { db } = app;

  app.get(
    '/api/streamers',
    {
      config: { guard: 'public' },
      schema: { querystring: ListQuery, response: { 200: Type.Array(StreamerItem) } },
    },
    async (request) => {
      const { viewer } = request;
      const staff = viewer.isAdmin || viewer.isMod;
      const query = request.query as Static<typeof ListQuery>;
      let view: View = 'public';
      if (staff && flag(query.all)) view = 'full';
      else if (!staff && viewer.user && (await isInAnyGroup(db, viewer.user.id))) view = 'team';

      const rows = await listStreamers(db);
      if (view !== 'public') return rows.sort(byEvaluatedThenName).map((r) => present(r, view));
      return rows
        .filter((r) => r.evaluated === 1 && r.has_rating)
        .map((r) => ({ row: r, sum: scoreSum(r.scores) }))
        .sort((a, b) => b.sum - a.sum || compareNames(a.row, b.row))
        .map(({ row }) => present(row, view));
    },
  );

  app.post(
    '/api/streamers',
    {
      config: {
        guard: (request) => (flag((request.query as { admin?: string }).admin) ? 'admin' : 'public'),
        inputErrors: { '*': 'Invalid streamer name' },
      },
      schema: {
        querystring: CreateQuery,
        body: CreateBody,
        response: { 201: Created, ...errors(400, 401, 409, 429) },
      },
    },
    async (request, reply) => {
      const byAdmin = flag((request.query as Static<typeof CreateQuery>).admin);
      if (!byAdmin) app.rateLimit.hit(request, 'suggest');
      const body = (request.body ?? {}) as Static<typeof CreateBody>;
      const name = sanitize(body.name);
      if (codePointLength(name) < 2) throw badRequest('Invalid streamer name');
      if (await nameTaken(db, nameKey(name))) throw conflict('Streamer already exists');
      try {
        const id = await writeTransaction(db, async (trx) => {
          const id = await insertStreamer(trx, {
            name,
            platform: body.platform === 'provider_b' ? 'provider_b' : 'provider_a',
            kick_name: sanitize(body.kick_name ?? body.provider_b),
            added_by: byAdmin ? 'admin' : 'viewer',
            submitter: line(body.submitter, 60),
            created_at: app.clock.now().toISOString(),
          });
          if (byAdmin)
            await record(trx, request, {
              action: 'streamer.add',
              target_id: id,
              summary: `Added streamer ${name}`,
            });
          return id;
        });
        return reply.code(201).send({ ok: true, id });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict('Streamer already exists');
        request.log.error({ err }, 'streamer insert failed');
        throw new DomainError(500, 'DB error');
      }
    },
  );

  app.put(
    '/api/streamers',
    {
      config: { guard: 'adminOrModerator', inputErrors: { '*': 'Missing id' } },
      schema: {
        querystring: IdQuery,
        body: UpdateBody,
        response: { 200: Ok, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { viewer } = request;
      const query = request.query as Static<typeof IdQuery>;
      const body = (request.body ?? {}) as Static<typeof UpdateBody>;

      if (flag(query.lock)) {
        if (!viewer.isAdmin) throw new DomainError(403, 'Admin only');
        const id = parseId(query.id);
        if (id === null) throw badRequest('Missing id');
        const locked = truthy(body.community_locked);
        await writeTransaction(db, async (trx) => {
          const before = await findStreamerState(trx, id);
          if (!before || !(await setCommunityLock(trx, id, locked))) throw notFound('Streamer not found');
          await record(trx, request, {
            action: 'streamer.lock',
            target_id: id,
            summary: `${locked ? 'Locked' : 'Unlocked'} community ratings of ${before.name}`,
            details: { old: before.community_locked === 1, new: locked },
          });
        });
        return { ok: true };
      }

      const id = parseId(query.id);
      if (id === null) throw badRequest('Missing id');

      const scores = clampScores(body.r);
      const sum = scoreSum(scores);
      const evaluated = sum > 0 ? 1 : 0;
      const notes = cleanText(body.notes);
      const rating = {
        scores,
        notes: notes === undefined ? null : cut(notes, 2000),
        reward: viewer.isAdmin ? clamp(toInt(body.reward), 0, 130) : moderatorReward(sum),
        updated_at: app.clock.now().toISOString(),
      };
      const fields = viewer.isAdmin
        ? {
            evaluated,
            kick_name: sanitize(body.provider_b ?? body.kick_name),
            status: body.status === 'live' ? 'live' : 'offline',
            game: line(body.game, 100),
            title: line(body.title, 200),
          }
        : { evaluated };

      await writeTransaction(db, async (trx) => {
        const before = await findStreamerState(trx, id);
        if (!before) throw notFound('Streamer not found');
        await saveRating(trx, id, rating);
        await updateStreamer(trx, id, fields);
        const { name, community_locked: _, s, g, a, v, n, ns, o, reward, notes, ...oldFields } = before;
        const oldScores = s === null ? null : { s, g, a, v, n, ns, o };
        await record(trx, request, {
          action: viewer.isAdmin ? 'streamer.edit' : 'streamer.rate',
          target_id: id,
          summary: `Rated ${name}: ${oldScores ? scoreSum(oldScores as typeof scores) : 'unrated'} → ${sum}`,
          details: {
            old: { r: oldScores, reward, notes, ...(viewer.isAdmin ? oldFields : {}) },
            new: { r: scores, reward: rating.reward, notes: rating.notes, ...(viewer.isAdmin ? fields : {}) },
          },
        });
      });
      return { ok: true };
    },
  );

  app.delete(
    '/api/streamers',
    {
      config: { guard: 'admin', inputErrors: { '*': 'Missing id' } },
      schema: { querystring: IdQuery, response: { 200: Ok, ...errors(400, 401, 404) } },
    },
    async (request) => {
      const id = parseId((request.query as Static<typeof IdQuery>).id);
      if (id === null) throw badRequest('Missing id');
      await writeTransaction(db, async (trx) => {
        const before = await findStreamerState(trx, id);
        if (!before || !(await deleteStreamer(trx, id))) throw notFound('Streamer not found');
        await record(trx, request, {
          action: 'streamer.delete',
          target_id: id,
          summary: `Deleted streamer ${before.name}`,
        });
      });
      return { ok: true };
    },
  );

  methodNotAllowed(app, '/api/streamers', ['GET', 'POST', 'PUT', 'DELETE']);
}
