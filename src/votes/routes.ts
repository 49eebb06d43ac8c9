import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { fail } from '../errors.ts';
import { parseId } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { OK } from '../lib/schemas.ts';
import { votesOf } from './queries.ts';
import { myVotesSchema, voteSchema } from './schemas.ts';
import { mayVote, VOTE_ROLES } from './policy.ts';
import { castVote } from './vote.ts';

/** DECISIONS.md "Taking part": the audience score, beside the staff rating. */
export const voteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;

  app.put(
    '/api/votes',
    { config: { guard: VOTE_ROLES.vote, contribution: true }, schema: voteSchema },
    async (request) => {
      const { viewer, query, body } = request;
      const user = viewer.user;
      if (!mayVote(viewer) || !user) throw fail('banned');
      const streamerId = parseId(query.streamer_id);
      if (streamerId === null) throw fail('missing_streamer_id');
      await castVote(app.ctx, viewer, user.id, streamerId, body.score);
      return OK;
    },
  );

  app.get('/api/votes', { config: { guard: VOTE_ROLES.mine }, schema: myVotesSchema }, async (request) => {
    const { user } = request.viewer;
    if (!user) throw fail('not_logged_in');
    return { votes: await votesOf(db, user.id) };
  });

  methodNotAllowed(app, '/api/votes', ['GET', 'PUT']);
};
