import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { writeTransaction } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import { findGroup } from '../groups/queries.ts';
import { parseId } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { OK } from '../lib/schemas.ts';
import { clampScores } from '../lib/scores.ts';
import { streamerExists } from '../streamers/queries.ts';
import { communitySummary, isMember, isLocked, myCommunityRating, saveCommunityRating } from './queries.ts';
import { mineSchema, rateSchema, summarySchema } from './schemas.ts';
import { COMMUNITY_ROLES, mayRateCommunity } from './policy.ts';

/** Community ratings: team members rate their team's streamer (DECISIONS.md). */
export const communityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, database, clock } = app;

  app.get(
    '/api/community_ratings',
    { config: { guard: COMMUNITY_ROLES.summary }, schema: summarySchema },
    async (request) => {
      const streamerId = parseId(request.query.streamer_id);
      if (streamerId === null) throw fail('missing_streamer_id');
      if (!(await streamerExists(db, streamerId))) throw fail('streamer_not_found');
      return communitySummary(db, streamerId);
    },
  );

  app.get(
    '/api/community_ratings/mine',
    { config: { guard: COMMUNITY_ROLES.mine }, schema: mineSchema },
    async (request) => {
      const groupId = parseId(request.query.group_id);
      if (groupId === null) throw fail('missing_group_id');
      const user = request.viewer.user;
      return { r: user ? await myCommunityRating(db, groupId, user.id) : null };
    },
  );

  app.put(
    '/api/community_ratings',
    { config: { guard: COMMUNITY_ROLES.rate, contribution: true }, schema: rateSchema },
    async (request) => {
      const { body, viewer } = request;
      const groupId = parseId(body.group_id);
      if (groupId === null) throw fail('missing_group_id');
      const user = viewer.user;
      if (!user) throw fail('not_logged_in');
      await writeTransaction(database, async (trx) => {
        const group = await findGroup(trx, groupId);
        if (!group) throw fail('group_not_found');
        const member = await isMember(trx, groupId, user.id);
        if (!member) throw fail('not_a_member');
        if (group.streamer_id === null) throw fail('team_has_no_streamer');
        const locked = await isLocked(trx, group.streamer_id);
        if (!mayRateCommunity(viewer, { member, locked })) throw fail('community_locked');
        await saveCommunityRating(trx, {
          group_id: groupId,
          streamer_id: group.streamer_id,
          user_id: user.id,
          scores: clampScores(body.r),
          updated_at: clock.now().toISOString(),
        });
      });
      return OK;
    },
  );

  methodNotAllowed(app, '/api/community_ratings', ['GET', 'PUT']);
};
