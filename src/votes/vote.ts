import type { AppContext } from '../context.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import { clamp, toInt } from '../lib/input.ts';
import { LIMITS } from '../shared/rules.ts';
import { speaksFor } from '../streamers/speaks-for.ts';
import { renderedView } from '../streamers/views.ts';
import { setVote } from './queries.ts';

/**
 * A signed-in user's audience score of a streamer of the Public view (DECISIONS.md "Taking
 * part"), 0 to LIMITS.score, replacing their earlier one, in one transaction. The user who
 * speaks for the streamer is refused (403 `Not allowed`), a removal included.
 */
export async function castVote(
  ctx: AppContext,
  userId: number,
  streamerId: number,
  score: unknown,
): Promise<void> {
  const value = clamp(toInt(score), 0, LIMITS.score);
  // Only streamers of the Public view take votes: the rendered view says which they are.
  const list = await renderedView(ctx, 'public');
  if (!list.value?.some((s) => s.id === streamerId)) throw fail('streamer_not_found');
  // Who speaks for a streamer does not vote for it (issue 45, item 14; votes/audience.ts).
  if (await speaksFor(ctx.db, userId, streamerId)) throw fail('not_allowed');
  await writeTransaction(ctx.database, (trx) =>
    setVote(trx, streamerId, userId, value, ctx.clock.now().toISOString()),
  );
}
