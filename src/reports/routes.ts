import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { findComment } from '../comments/queries.ts';
import { lockRow } from '../db/dialect.ts';
import { writeTransaction } from '../db/transaction.ts';
import { reportedEmbed } from '../discord/events.ts';
import { tellDiscord } from '../discord/queries.ts';
import { fail } from '../errors.ts';
import { keepAnswer } from '../idempotency/keep.ts';
import { cleanText, cut, parseId } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { limit } from '../plugins/rate-limits.ts';
import { LIMITS, REPORT_REASONS, type ReportReason } from '../shared/rules.ts';
import { findStreamerState } from '../streamers/queries.ts';
import { openReport } from './queries.ts';
import { reportSchema } from './schemas.ts';
import { REPORT_ROLES } from './policy.ts';

const reasonOf = (value: unknown): ReportReason =>
  REPORT_REASONS.includes(value as ReportReason) ? (value as ReportReason) : 'other';

/** DECISIONS.md "Reports and the moderation queue": anyone reports a comment to staff. */
export const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { database, clock } = app;

  app.post(
    '/api/reports',
    {
      config: { guard: REPORT_ROLES.report, contribution: true, idempotencyKey: true, ...limit('report') },
      schema: reportSchema,
    },
    async (request, reply) => {
      const { body, viewer } = request;
      const commentId = parseId(body.comment_id);
      if (commentId === null) throw fail('missing_comment_id');
      const user = viewer.user;
      const keep = keepAnswer(request, reply, 201);
      const answer = await writeTransaction(database, async (trx) => {
        // Reports of one comment take turns, so exactly one of them is its first open report.
        await lockRow(trx, 'comments', commentId);
        const comment = await findComment(trx, commentId);
        if (!comment || comment.hidden === 1) throw fail('comment_not_found');
        const reason = reasonOf(body.reason);
        const now = clock.now().toISOString();
        const { first } = await openReport(trx, {
          comment_id: commentId,
          // One open report per reporter: the account, or the address by its guest tag.
          reporter: user ? `u:${user.id}` : `g:${request.guestTag}`,
          reporter_user_id: user?.id ?? null,
          reason,
          note: cut(cleanText(body.note) ?? '', LIMITS.reportNote),
          created_at: now,
        });
        // `reported` (DECISIONS.md "Reaching out"): the comment's first open report.
        const streamer = first ? await findStreamerState(trx, comment.streamer_id) : undefined;
        if (streamer) {
          const embed = reportedEmbed(
            { id: comment.streamer_id, name: streamer.name },
            { ...comment, reason },
            now,
          );
          tellDiscord(trx, 'reported', [embed]);
        }
        return keep(trx, { ok: true as const });
      });
      return reply.code(201).send(answer);
    },
  );

  methodNotAllowed(app, '/api/reports', ['POST']);
};
