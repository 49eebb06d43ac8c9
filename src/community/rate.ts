import type { AppContext } from '../context.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import { findGroup } from '../groups/queries.ts';
import { clampScores } from '../lib/scores.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { mayRateCommunity } from './policy.ts';
import { isLocked, isMember, saveCommunityRating } from './queries.ts';

/**
 * A team member's community rating of their team's streamer (DECISIONS.md "Community
 * ratings"), unless the streamer is locked: saved in one transaction.
 */
export async function rateForCommunity(
  ctx: AppContext,
  viewer: Viewer,
  groupId: number,
  scores: unknown,
): Promise<void> {
  const user = viewer.user;
  if (!user) throw fail('not_logged_in');
  await writeTransaction(ctx.database, async (trx) => {
    const group = await findGroup(trx, groupId);
    if (!group) throw fail('group_not_found');
    const member = await isMember(trx, groupId, user.id);
    if (!member) throw fail('not_a_member');
    if (group.streamer_id === null) throw fail('team_has_no_streamer');
    const locked = await isLocked(trx, group.streamer_id);
    if (!mayRateCommunity(viewer, { member, locked })) throw fail('community_locked');
    await saveCommunityRating(trx, {
      group_id: groupId,
      streamer_id: group.streamer_id,
      user_id: user.id,
      scores: clampScores(scores),
      updated_at: ctx.clock.now().toISOString(),
    });
  });
}
