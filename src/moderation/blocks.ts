import { actorOf, audit } from '../audit/queries.ts';
import { commentToChange } from '../comments/queries.ts';
import type { AppContext } from '../context.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import type { Keep } from '../idempotency/keep.ts';
import { clamp, toInt } from '../lib/input.ts';
import { shortTag } from '../plugins/guest-tag.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { LIMITS } from '../shared/rules.ts';
import { deleteBlock, findBlock, putBlock } from './block-queries.ts';
import { mayBlockAuthorOf } from './policy.ts';

const DAY_MS = 86_400_000;

/** Who acted, as a block names them: the staff member's display name, or `admin`. */
const staffName = (viewer: Viewer): string => viewer.user?.display_name ?? 'admin';

/**
 * Blocks the address a guest comment came from (DECISIONS.md "Guests, names and bans"), by
 * its guest tag, for `days` (default and maximum: LIMITS), audited, in one transaction whose
 * answer `keep` keeps. A signed-in author is banned instead (`use_ban_for_users`).
 */
export async function blockAuthorOf(
  ctx: AppContext,
  viewer: Viewer,
  commentId: number,
  daysInput: unknown,
  keep: Keep,
): Promise<{ ok: true; id: number }> {
  const days =
    daysInput === undefined || daysInput === null
      ? LIMITS.blockDaysDefault
      : clamp(toInt(daysInput), 1, LIMITS.blockDaysMax);
  const now = ctx.clock.now();
  return writeTransaction(ctx.database, async (trx) => {
    const comment = await commentToChange(trx, commentId);
    if (!comment) throw fail('comment_not_found');
    if (!mayBlockAuthorOf(viewer, comment)) throw fail('use_ban_for_users');
    if (!comment.guest_tag) throw fail('no_guest_tag');
    const blockId = await putBlock(trx, {
      guest_tag: comment.guest_tag,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + days * DAY_MS).toISOString(),
      created_by: staffName(viewer),
      created_by_user_id: viewer.user?.id ?? null,
      comment_id: commentId,
    });
    await audit(trx, actorOf(viewer, now), {
      action: 'block.add',
      target_id: blockId,
      params: { guest_tag: shortTag(comment.guest_tag), author: comment.author, days },
      details: { comment_id: commentId, days, guest_tag: shortTag(comment.guest_tag) },
    });
    return keep(trx, { ok: true as const, id: blockId });
  });
}

/** Lifts an address block, audited, in one transaction (404 when there is none). */
export async function unblock(ctx: AppContext, viewer: Viewer, id: number): Promise<void> {
  const now = ctx.clock.now();
  await writeTransaction(ctx.database, async (trx) => {
    const block = await findBlock(trx, id);
    if (!block || !(await deleteBlock(trx, id))) throw fail('block_not_found');
    await audit(trx, actorOf(viewer, now), {
      action: 'block.remove',
      target_id: id,
      params: { guest_tag: shortTag(block.guest_tag) },
      details: { guest_tag: shortTag(block.guest_tag), expires_at: block.expires_at },
    });
  });
}
