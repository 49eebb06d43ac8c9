import type { AppContext } from '../context.ts';
import { advisoryKey } from '../db/group-locks.ts';
import type { Db } from '../db/schema.ts';
import { type Batch, type Outcome, writeBatched } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import { clamp, toInt } from '../lib/input.ts';
import { LIMITS } from '../shared/rules.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { speakerOfStreamer } from '../streamers/speaks-for.ts';
import { streamerInPublicView } from '../streamers/public-view.ts';
import { mayVoteFor } from './policy.ts';
import { setVote } from './queries.ts';

/** One vote as its group commit runs it. */
interface Vote {
  viewer: Viewer;
  userId: number;
  streamerId: number;
  value: number;
  now: string;
}

/**
 * A signed-in user's audience score of a streamer of the Public view (DECISIONS.md "Taking
 * part"), 0 to LIMITS.score, replacing their earlier one. The user who speaks for the streamer
 * is refused (403 `Not allowed`), a removal included; who speaks is asked inside the write, as
 * for the right of reply (streamers/reply.ts). Votes share a group commit (`VOTES`).
 */
export async function castVote(
  ctx: AppContext,
  viewer: Viewer,
  userId: number,
  streamerId: number,
  score: unknown,
): Promise<void> {
  const value = clamp(toInt(score), 0, LIMITS.score);
  const vote: Vote = { viewer, userId, streamerId, value, now: ctx.clock.now().toISOString() };
  // What the answers show (the audience figures), not what a session holds: the signed-in
  // users' cached sessions stay.
  await writeBatched(ctx.database, VOTES, vote, 'content');
}

/** Asks a vote's rules; null when it may be stored, else its refusal (before it wrote anything). */
async function refusal(trx: Db, vote: Vote): Promise<unknown> {
  const { viewer, userId, streamerId } = vote;
  // Who speaks for a streamer does not vote for it (issue 45, item 14; votes/audience.ts):
  // a 403, which comes before the 404 (DECISIONS.md "Errors"), as for the right of reply.
  const speaksFor = (await speakerOfStreamer(trx, streamerId)) === userId ? [streamerId] : [];
  if (!mayVoteFor(viewer, speaksFor, streamerId)) return fail('not_allowed');
  // Only streamers of the Public view take votes, asked of the one row in the vote's own
  // transaction: rendering the whole list here made a vote cost a sum over every vote.
  if (!(await streamerInPublicView(trx, streamerId))) return fail('streamer_not_found');
  return null;
}

/**
 * The votes of a group, in the order of their streamers. On PostgreSQL each vote was a
 * transaction of its own, and each commit's NOTIFY and WAL flush queued behind the others
 * (0.13x of one INSERT a request); a group commits once. Each group first locks its streamers
 * (advisory locks, in one order for every group), so two groups never wait for each other's
 * tally rows (migration 035's trigger) the other way round.
 */
const VOTES: Batch<Vote, void> = {
  async many(trx, votes) {
    const outcomes: Outcome<void>[] = votes.map(() => ({ ok: true, value: undefined }));
    const order = votes
      .map((vote, i) => ({ vote, i }))
      .sort((a, b) => a.vote.streamerId - b.vote.streamerId || a.i - b.i);
    for (const { vote, i } of order) {
      const refused = await refusal(trx, vote);
      if (refused) outcomes[i] = { ok: false, err: refused };
      else await setVote(trx, vote.streamerId, vote.userId, vote.value, vote.now);
    }
    return outcomes;
  },
  locks: { keys: (votes) => votes.map((v) => advisoryKey(`vote:${v.streamerId}`)), when: 'true' },
};
