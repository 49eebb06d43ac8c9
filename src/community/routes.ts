import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { writeTransaction } from '../db/transaction.ts';
import { badRequest, DomainError, forbidden, notFound } from '../errors.ts';
import { parseId } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { errors, Field, Ok, Param, Scores, ScoresInput } from '../lib/schemas.ts';
import { findGroup } from '../groups/queries.ts';
import { clampScores } from '../lib/scores.ts';
import { streamerExists } from '../streamers/queries.ts';
import { communitySummary, isMember, myCommunityRating, saveCommunityRating } from './queries.ts';

const Average = Type.Object({
  s: Type.Number(),
  g: Type.Number(),
  a: Type.Number(),
  v: Type.Number(),
  n: Type.Number(),
  ns: Type.Number(),
  o: Type.Number(),
});
const Summary = Type.Object({ count: Type.Integer(), avg: Average, total: Type.Number() });
const SummaryQuery = Type.Object({ streamer_id: Param() });
const MineQuery = Type.Object({ group_id: Param() });
const Mine = Type.Object({ r: Type.Union([Scores, Type.Null()]) });
const RateBody = Type.Object({
  group_id: Type.Optional(Field(64)),
  r: Type.Optional(Type.Union([ScoresInput, Field(32)])),
});

/** Community ratings: team members rate their team's streamer (DECISIONS.md). */
export async function communityRoutes(app: FastifyInstance) {
  const { db } = app;

  app.get(
    '/api/community_ratings',
    {
      config: { guard: 'public', inputErrors: { '*': 'Missing streamer_id' } },
      schema: {
        summary: 'Community rating summary of a streamer',
        querystring: SummaryQuery,
        response: { 200: Summary, ...errors(400, 404) },
      },
    },
    async (request) => {
      const streamerId = parseId((request.query as Static<typeof SummaryQuery>).streamer_id);
      if (streamerId === null) throw badRequest('Missing streamer_id');
      if (!(await streamerExists(db, streamerId))) throw notFound('Streamer not found');
      return communitySummary(db, streamerId);
    },
  );

  app.get(
    '/api/community_ratings/mine',
    {
      config: { guard: 'signedIn', inputErrors: { '*': 'Missing group_id' } },
      schema: {
        summary: "The signed-in member's own community rating for a team",
        querystring: MineQuery,
        response: { 200: Mine, ...errors(400, 401) },
      },
    },
    async (request) => {
      const groupId = parseId((request.query as Static<typeof MineQuery>).group_id);
      if (groupId === null) throw badRequest('Missing group_id');
      return { r: await myCommunityRating(db, groupId, request.viewer.user!.id) };
    },
  );

  app.put(
    '/api/community_ratings',
    {
      config: { guard: 'signedIn', inputErrors: { '*': 'Missing group_id' } },
      schema: {
        summary: "Rate your team's streamer (one rating per member, replaced on repeat)",
        body: RateBody,
        response: { 200: Ok, ...errors(400, 401, 403, 404, 423) },
      },
    },
    async (request) => {
      const body = (request.body ?? {}) as Static<typeof RateBody>;
      const groupId = parseId(body.group_id);
      if (groupId === null) throw badRequest('Missing group_id');
      const user = request.viewer.user!;
      await writeTransaction(db, async (trx) => {
        const group = await findGroup(trx, groupId);
        if (!group) throw notFound('Group not found');
        if (!(await isMember(trx, groupId, user.id))) throw forbidden('Not a member of this team');
        if (group.streamer_id === null) throw badRequest('Team has no streamer');
        const streamer = await trx
          .selectFrom('streamers')
          .select('community_locked')
          .where('id', '=', group.streamer_id)
          .executeTakeFirstOrThrow();
        if (streamer.community_locked === 1) throw new DomainError(423, 'Community ratings are locked');
        await saveCommunityRating(trx, {
          group_id: groupId,
          streamer_id: group.streamer_id,
          user_id: user.id,
          scores: clampScores(body.r),
          updated_at: app.clock.now().toISOString(),
        });
      });
      return { ok: true };
    },
  );

  methodNotAllowed(app, '/api/community_ratings', ['GET', 'PUT']);
}
