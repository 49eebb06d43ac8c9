import { keepAnswer } from '../idempotency/keep.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { fail, givenId } from '../errors.ts';
import { flag, parseId } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { OK, pageLimit } from '../lib/schemas.ts';
import { REVIEWS } from '../shared/reviews.ts';
import { REVIEW_ROLES } from './policy.ts';
import { publishReviews } from './publish.ts';
import { reviewQueue } from './queries.ts';
import { requestRerating } from './request.ts';
import { readReviews, review, reviewerOf, reviewInput } from './review.ts';
import { postSchema, readSchema, reviewSchema } from './schemas.ts';

/** DECISIONS.md "Fifth wave" → "Staff reviews": blind reviews, their queue, publishing, re-rating requests. */
export const reviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/reviews',
    { config: { guard: REVIEW_ROLES.read }, schema: readSchema },
    async (request, reply) => {
      const { viewer, query } = request;
      reply.header('cache-control', 'no-store');
      if (flag(query.queue)) {
        return reviewQueue(app.db, reviewerOf(viewer), pageLimit(query.limit, REVIEWS.queueMax));
      }
      return readReviews(app.ctx, viewer, givenId(parseId(query.streamer_id), 'missing_streamer_id'));
    },
  );

  app.put(
    '/api/reviews',
    { config: { guard: REVIEW_ROLES.write, contribution: true }, schema: reviewSchema },
    async (request) => {
      const { viewer, query, body } = request;
      await review(app.ctx, viewer, parseId(query.streamer_id), reviewInput(body));
      return OK;
    },
  );

  app.post(
    '/api/reviews',
    { config: { guard: REVIEW_ROLES.write, contribution: true, idempotencyKey: true }, schema: postSchema },
    async (request, reply) => {
      const { viewer, query, body } = request;
      if (flag(query.publish)) {
        return publishReviews(app.ctx, request, parseId(query.streamer_id), keepAnswer(request, reply, 200));
      }
      if (!flag(query.request)) throw fail('bad_request');
      const id = parseId(query.streamer_id);
      return reply
        .code(201)
        .send(await requestRerating(app.ctx, viewer, id, body.reason, keepAnswer(request, reply, 201)));
    },
  );

  methodNotAllowed(app, '/api/reviews', ['GET', 'PUT', 'POST']);
};
