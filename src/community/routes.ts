import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { fail } from '../errors.ts';
import { parseId } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { OK } from '../lib/schemas.ts';
import { streamerExists } from '../catalogue/exists.ts';
import { communitySummary, myCommunityRating } from './queries.ts';
import { rateForCommunity } from './rate.ts';
import { mineSchema, rateSchema, summarySchema } from './schemas.ts';
import { COMMUNITY_ROLES } from './policy.ts';

/** Community ratings: team members rate their team's streamer (DECISIONS.md). */
export const communityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;

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
      await rateForCommunity(app.ctx, viewer, groupId, body.r);
      return OK;
    },
  );

  methodNotAllowed(app, '/api/community_ratings', ['GET', 'PUT']);
  methodNotAllowed(app, '/api/community_ratings/mine', ['GET']);
};
