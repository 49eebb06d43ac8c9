import { isShown } from '../comments/policy.ts';
import { findComment } from '../comments/queries.ts';
import type { AppContext } from '../context.ts';
import { lockRow } from '../db/dialect.ts';
import { writeTransaction } from '../db/transaction.ts';
import { reportedEmbed } from '../discord/events.ts';
import { tellDiscord } from '../discord/queries.ts';
import { fail } from '../errors.ts';
import type { Keep } from '../idempotency/keep.ts';
import { cleanText, cut } from '../lib/input.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { LIMITS, REPORT_REASONS, type ReportReason } from '../shared/rules.ts';
import { findStreamerState } from '../streamers/queries.ts';
import { openReport } from './queries.ts';

const reasonOf = (value: unknown): ReportReason =>
  REPORT_REASONS.includes(value as ReportReason) ? (value as ReportReason) : 'other';

/**
 * Reports a comment everyone sees (comments/policy.ts `isShown`) to staff (DECISIONS.md "Reports and the moderation queue"): one
 * open report per reporter (the account, or the address by its guest tag); the comment's first
 * open report tells Discord (`reported`). One transaction, whose answer `keep` keeps.
 */
export async function reportComment(
  ctx: AppContext,
  request: { viewer: Viewer; guestTag: string },
  commentId: number,
  body: { reason?: unknown; note?: unknown },
  keep: Keep,
): Promise<{ ok: true }> {
  const user = request.viewer.user;
  return writeTransaction(ctx.database, async (trx) => {
    // Reports of one comment take turns, so exactly one of them is its first open report.
    await lockRow(trx, 'comments', commentId);
    const comment = await findComment(trx, commentId);
    if (!comment || !isShown(comment)) throw fail('comment_not_found');
    const reason = reasonOf(body.reason);
    const now = ctx.clock.now().toISOString();
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
}
