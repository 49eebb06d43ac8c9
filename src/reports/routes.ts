import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { fail } from '../errors.ts';
import { keepAnswer } from '../idempotency/keep.ts';
import { parseId } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { limit } from '../plugins/rate-limits.ts';
import { REPORT_ROLES } from './policy.ts';
import { reportComment } from './report.ts';
import { reportSchema } from './schemas.ts';

/** DECISIONS.md "Reports and the moderation queue": anyone reports a comment to staff. */
export const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/reports',
    {
      config: { guard: REPORT_ROLES.report, contribution: true, idempotencyKey: true, ...limit('report') },
      schema: reportSchema,
    },
    async (request, reply) => {
      const { body } = request;
      const commentId = parseId(body.comment_id);
      if (commentId === null) throw fail('missing_comment_id');
      const answer = await reportComment(app.ctx, request, commentId, body, keepAnswer(request, reply, 201));
      return reply.code(201).send(answer);
    },
  );

  methodNotAllowed(app, '/api/reports', ['POST']);
};
