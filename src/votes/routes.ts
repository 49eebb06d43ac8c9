import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { writeTransaction } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import { clamp, parseId, toInt } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { OK } from '../lib/schemas.ts';
import { LIMITS } from '../shared/rules.ts';
import { renderedView } from '../streamers/views.ts';
import { setVote, votesOf } from './queries.ts';
import { myVotesSchema, voteSchema } from './schemas.ts';
import { mayVote, VOTE_ROLES } from './policy.ts';

/** DECISIONS.md "Taking part": the audience score, beside the staff rating. */
export const voteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, database, clock } = app;

  app.put(
    '/api/votes',
    { config: { guard: VOTE_ROLES.vote, contribution: true }, schema: voteSchema },
    async (request) => {
      const { viewer, query, body } = request;
      const user = viewer.user;
      if (!mayVote(viewer) || !user) throw fail('banned');
      const streamerId = parseId(query.streamer_id);
      if (streamerId === null) throw fail('missing_streamer_id');
      const score = clamp(toInt(body.score), 0, LIMITS.score);
      // Only streamers of the Public view take votes: the rendered view says which they are.
      const list = await renderedView(app.ctx, 'public');
      if (!list.value?.some((s) => s.id === streamerId)) throw fail('streamer_not_found');
      await writeTransaction(database, (trx) =>
        setVote(trx, streamerId, user.id, score, clock.now().toISOString()),
      );
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
