import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { advisoryKey } from '../db/group-locks.ts';
import { isSqlite } from '../db/dialect.ts';
import type { Db } from '../db/schema.ts';
import type { Batch, Outcome } from '../db/batched.ts';
import { writeBatched } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import { clamp, toInt } from '../lib/input.ts';
import { LIMITS } from '../shared/rules.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { CHANNEL_COLUMNS, speakerOfStreamer, speakersOf } from '../catalogue/speaks-for.ts';
import { IN_PUBLIC_VIEW, inPublicView, streamerInPublicView } from '../catalogue/public-view.ts';
import { mayVoteFor } from './policy.ts';
import { setVote, setVotes } from './queries.ts';

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

/** A vote's refusal, given who speaks for its streamer and whether it is in the Public view; null: it may be stored. */
function refusalOf(vote: Vote, speaker: number | null, shown: boolean): unknown {
  // Who speaks for a streamer does not vote for it (issue 45, item 14; votes/audience.ts):
  // a 403, which comes before the 404 (DECISIONS.md "Errors"), as for the right of reply.
  const speaksFor = speaker === vote.userId ? [vote.streamerId] : [];
  if (!mayVoteFor(vote.viewer, speaksFor, vote.streamerId)) return fail('not_allowed');
  // Only streamers of the Public view take votes, asked of the rows in the vote's own
  // transaction: rendering the whole list here made a vote cost a sum over every vote.
  if (!shown) return fail('streamer_not_found');
  return null;
}

/** Asks one vote's rules (SQLite); null when it may be stored, else its refusal (before it wrote anything). */
async function refusal(trx: Db, vote: Vote): Promise<unknown> {
  const speaker = await speakerOfStreamer(trx, vote.streamerId);
  return refusalOf(vote, speaker, await streamerInPublicView(trx, vote.streamerId));
}

/**
 * The votes of a group. On PostgreSQL each vote was a transaction of its own, and each commit's
 * NOTIFY and WAL flush queued behind the others (0.13x of one INSERT a request); a group commits
 * once, asks every vote's rules in two queries and stores the votes in one statement each for
 * removals and scores, the last of a user's votes on a streamer being the one that stays. Each
 * group first locks its streamers (advisory locks, in one order for every group), so no two
 * groups write one streamer's tally (migration 035's trigger) at once. SQLite, in process,
 * keeps one statement text per group size, so there each vote asks and writes on its own.
 */
const VOTES: Batch<Vote, void> = {
  async many(trx, votes) {
    if (isSqlite(trx)) {
      const outcomes: Outcome<void>[] = [];
      for (const vote of votes) {
        const refused = await refusal(trx, vote);
        if (!refused) await setVote(trx, vote.streamerId, vote.userId, vote.value, vote.now);
        outcomes.push(refused ? { ok: false, err: refused } : { ok: true, value: undefined });
      }
      return outcomes;
    }
    const streamers = await trx
      .selectFrom('streamers')
      .select([...CHANNEL_COLUMNS, IN_PUBLIC_VIEW.as('in_public_view')])
      // One array parameter: one text whatever the group's size (votes/queries.ts `setVotes`).
      .where('id', '=', sql<number>`any(cast(${[...new Set(votes.map((v) => v.streamerId))]} as integer[]))`)
      .execute();
    const speakers = await speakersOf(trx, streamers);
    const shown = new Set(streamers.filter(inPublicView).map((s) => s.id));
    const stays = new Map<string, Vote>();
    const outcomes = votes.map((vote): Outcome<void> => {
      const refused = refusalOf(vote, speakers.get(vote.streamerId) ?? null, shown.has(vote.streamerId));
      if (refused) return { ok: false, err: refused };
      stays.set(`${vote.streamerId}:${vote.userId}`, vote);
      return { ok: true, value: undefined };
    });
    await setVotes(trx, [...stays.values()]);
    return outcomes;
  },
  locks: { keys: (votes) => votes.map((v) => advisoryKey(`vote:${v.streamerId}`)), when: 'true' },
};
