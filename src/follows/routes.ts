import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DomainError, fail } from '../errors.ts';
import { booleanField, parseId } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { pageLimit } from '../lib/schemas.ts';
import { PAGE_MAX } from '../shared/rules.ts';
import { setFollow } from './follow.ts';
import { FOLLOW_ROLES, mayFollow } from './policy.ts';
import { followedIds } from './queries.ts';
import { followSchema, myFollowsSchema } from './schemas.ts';

/** DECISIONS.md "Fifth wave" → "Following": a signed-in user's follows. */
export const followRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;

  app.put(
    '/api/follows',
    { config: { guard: FOLLOW_ROLES.follow, contribution: true }, schema: followSchema },
    async (request) => {
      const { viewer, query, body } = request;
      const user = viewer.user;
      if (!mayFollow(viewer) || !user) throw fail('banned');
      const streamerId = parseId(query.streamer_id);
      if (streamerId === null) throw fail('missing_streamer_id');
      const follow = booleanField(body.follow);
      if (follow === undefined) throw new DomainError('invalid_field', { message: 'Invalid follow' });
      const { followers } = await setFollow(app.ctx, user.id, streamerId, follow);
      return { ok: true as const, followers };
    },
  );

  app.get(
    '/api/follows',
    { config: { guard: FOLLOW_ROLES.mine }, schema: myFollowsSchema },
    async (request, reply) => {
      const { user } = request.viewer;
      if (!user) throw fail('not_logged_in');
      reply.header('cache-control', 'no-store');
      const { limit, before } = request.query;
      const page =
        limit === undefined ? null : { limit: pageLimit(limit, PAGE_MAX), before: parseId(before) };
      return { streamer_ids: await followedIds(db, user.id, page) };
    },
  );

  methodNotAllowed(app, '/api/follows', ['GET', 'PUT']);
};
