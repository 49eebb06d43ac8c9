import type { Db, Scores } from '../db/schema.ts';
import { scoreSum } from '../shared/rules.ts';

/** The staff rating's writes and its history (DECISIONS.md "Taking part"). */

export async function saveRating(
  db: Db,
  streamerId: number,
  rating: { scores: Scores; reward: number; notes: string | null; updated_at: string },
): Promise<void> {
  const values = {
    ...rating.scores,
    reward: rating.reward,
    notes: rating.notes,
    updated_at: rating.updated_at,
  };
  await db
    .insertInto('ratings')
    .values({ streamer_id: streamerId, ...values })
    .onConflict((oc) => oc.column('streamer_id').doUpdateSet(values))
    .execute();
  // Every rating write is history (DECISIONS.md "Taking part"); notes never are.
  await db
    .insertInto('rating_history')
    .values({ streamer_id: streamerId, at: rating.updated_at, ...rating.scores, reward: rating.reward })
    .execute();
}

/** How a streamer's rating moved: every write, oldest first. */
export async function ratingHistory(db: Db, streamerId: number) {
  const rows = await db
    .selectFrom('rating_history')
    .select(['at', 's', 'g', 'a', 'v', 'n', 'ns', 'o', 'reward'])
    .where('streamer_id', '=', streamerId)
    .orderBy('id')
    .execute();
  return rows.map(({ at, reward, ...r }) => ({ at, r, sum: scoreSum(r), reward }));
}

/** When the rating was last written (its last history row), or null: what an editor started from. */
export async function lastRatedAt(db: Db, streamerId: number): Promise<string | null> {
  const row = await db
    .selectFrom('rating_history')
    .select('at')
    .where('streamer_id', '=', streamerId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.at ?? null;
}
