import type { AppContext } from '../context.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import { clamp, toInt } from '../lib/input.ts';
import { LIMITS } from '../shared/rules.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { speakerOfStreamer } from '../streamers/speaks-for.ts';
import { streamerInPublicView } from '../streamers/public-view.ts';
import { mayVoteFor } from './policy.ts';
import { setVote } from './queries.ts';

/**
 * A signed-in user's audience score of a streamer of the Public view (DECISIONS.md "Taking
 * part"), 0 to LIMITS.score, replacing their earlier one, in one transaction. The user who
 * speaks for the streamer is refused (403 `Not allowed`), a removal included; who speaks is
 * asked inside the transaction, as for the right of reply (streamers/reply.ts).
 */
export async function castVote(
  ctx: AppContext,
  viewer: Viewer,
  userId: number,
  streamerId: number,
  score: unknown,
): Promise<void> {
  const value = clamp(toInt(score), 0, LIMITS.score);
  await writeTransaction(
    ctx.database,
    async (trx) => {
      // Who speaks for a streamer does not vote for it (issue 45, item 14; votes/audience.ts):
      // a 403, which comes before the 404 (DECISIONS.md "Errors"), as for the right of reply.
      const speaksFor = (await speakerOfStreamer(trx, streamerId)) === userId ? [streamerId] : [];
      if (!mayVoteFor(viewer, speaksFor, streamerId)) throw fail('not_allowed');
      // Only streamers of the Public view take votes, asked of the one row in the vote's own
      // transaction: rendering the whole list here made a vote cost a sum over every vote.
      if (!(await streamerInPublicView(trx, streamerId))) throw fail('streamer_not_found');
      await setVote(trx, streamerId, userId, value, ctx.clock.now().toISOString());
      // What the answers show (the audience figures), not what a session holds: the signed-in
      // users' cached sessions stay.
    },
    'content',
  );
}
