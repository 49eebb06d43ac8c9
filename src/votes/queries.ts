import { sql } from 'kysely';
import type { Db } from '../db/schema.ts';

/** Sets (1-10) or removes (0) a user's vote on a streamer: one per user, the primary key. */
export async function setVote(db: Db, streamerId: number, userId: number, score: number, now: string) {
  if (score === 0) {
    await db
      .deleteFrom('votes')
      .where('streamer_id', '=', streamerId)
      .where('user_id', '=', userId)
      .execute();
    return;
  }
  await db
    .insertInto('votes')
    .values({ streamer_id: streamerId, user_id: userId, score, updated_at: now })
    .onConflict((oc) => oc.columns(['streamer_id', 'user_id']).doUpdateSet({ score, updated_at: now }))
    .execute();
}

/**
 * Several users' votes at once (PostgreSQL's group commit, votes/vote.ts), at most one per user
 * and streamer: the removals (0) in one statement, the scores in another, each over one array
 * parameter per column (`unnest`): one text whatever the group's size, so one prepared statement
 * (db/prepared.ts), where a row of parameters per vote made a text per size.
 */
export async function setVotes(
  db: Db,
  votes: readonly { streamerId: number; userId: number; value: number; now: string }[],
): Promise<void> {
  const removed = votes.filter((v) => v.value === 0);
  if (removed.length > 0) {
    await sql`delete from votes where (streamer_id, user_id) in (select * from unnest(
      cast(${removed.map((v) => v.streamerId)} as integer[]), cast(${removed.map((v) => v.userId)} as integer[])))`.execute(
      db,
    );
  }
  const scored = votes.filter((v) => v.value !== 0);
  if (scored.length > 0) {
    await sql`insert into votes (streamer_id, user_id, score, updated_at)
      select * from unnest(cast(${scored.map((v) => v.streamerId)} as integer[]),
        cast(${scored.map((v) => v.userId)} as integer[]), cast(${scored.map((v) => v.value)} as integer[]),
        cast(${scored.map((v) => v.now)} as text[]))
      on conflict (streamer_id, user_id) do update set score = excluded.score, updated_at = excluded.updated_at`.execute(
      db,
    );
  }
}

/** A user's votes, keyed by streamer id. */
export async function votesOf(db: Db, userId: number): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('votes')
    .select(['streamer_id', 'score'])
    .where('user_id', '=', userId)
    .orderBy('streamer_id')
    .execute();
  return Object.fromEntries(rows.map((r) => [String(r.streamer_id), r.score]));
}

/**
 * The votes of the users who speak for streamers, each on the streamer they speak for:
 * streamer id to score (`speakers`: streamer id to user id, catalogue/speaks-for.ts).
 */
export async function speakersVotes(
  db: Db,
  speakers: ReadonlyMap<number, number>,
): Promise<Map<number, number>> {
  const users = [...new Set(speakers.values())];
  const own = new Map<number, number>();
  for (let i = 0; i < users.length; i += 500) {
    const rows = await db
      .selectFrom('votes')
      .select(['streamer_id', 'user_id', 'score'])
      .where('user_id', 'in', users.slice(i, i + 500))
      .execute();
    for (const r of rows) if (speakers.get(r.streamer_id) === r.user_id) own.set(r.streamer_id, r.score);
  }
  return own;
}
