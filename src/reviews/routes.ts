import { keepAnswer } from '../idempotency/keep.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { fail, givenId } from '../errors.ts';
import { flag, parseId } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { OK, pageLimit } from '../lib/schemas.ts';
import { REVIEWS } from '../shared/reviews.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { mayPublish, mayReview, REVIEW_ROLES } from './policy.ts';
import { publishReviews } from './publish.ts';
import { reviewQueue } from './queries.ts';
import { requesterOf, requestRerating } from './request.ts';
import { assertStaffWriter, readReviews, review, reviewerOf, reviewInput } from './review.ts';
import { postSchema, readSchema, reviewSchema } from './schemas.ts';

/**
 * DECISIONS.md "Errors": who is calling (401/403) before the input (400). The caller of a review,
 * a publish or a re-rating request is known from the session alone, so it is asked before the
 * body is read, malformed or not; the operations then ask for the streamer.
 */
function callerOfReviews(viewer: Viewer, operation: 'review' | 'publish' | 'request'): void {
  if (operation === 'request') requesterOf(viewer);
  else assertStaffWriter(viewer, operation === 'review' ? mayReview : mayPublish);
}

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
    {
      config: { guard: REVIEW_ROLES.write, contribution: true },
      schema: reviewSchema,
      preParsing: async (request, _reply, payload) => {
        callerOfReviews(request.viewer, 'review');
        return payload;
      },
    },
    async (request) => {
      const { viewer, query, body } = request;
      await review(app.ctx, viewer, parseId(query.streamer_id), reviewInput(body));
      return OK;
    },
  );

  app.post(
    '/api/reviews',
    {
      config: { guard: REVIEW_ROLES.write, contribution: true, idempotencyKey: true },
      schema: postSchema,
      preParsing: async (request, _reply, payload) => {
        const { publish, request: rerating } = request.query;
        if (flag(publish) || flag(rerating))
          callerOfReviews(request.viewer, flag(publish) ? 'publish' : 'request');
        return payload;
      },
    },
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
