import type { Db } from '../db/schema.ts';
import { averageTenths, SCORE_KEYS, type ScoreKey, type Scores } from '../shared/rules.ts';

export async function saveCommunityRating(
  db: Db,
  rating: { group_id: number; streamer_id: number; user_id: number; scores: Scores; updated_at: string },
): Promise<void> {
  const values = { ...rating.scores, streamer_id: rating.streamer_id, updated_at: rating.updated_at };
  await db
    .insertInto('community_ratings')
    .values({ group_id: rating.group_id, user_id: rating.user_id, ...values })
    .onConflict((oc) => oc.columns(['group_id', 'user_id']).doUpdateSet(values))
    .execute();
}

/**
 * This user's rating in the team, of the team's streamer of the moment: a rating given before
 * the team moved to another streamer is that streamer's, not one to show (or send) as this one's.
 */
export async function myCommunityRating(db: Db, groupId: number, userId: number): Promise<Scores | null> {
  const row = await db
    .selectFrom('community_ratings')
    .innerJoin('rater_groups', 'rater_groups.id', 'community_ratings.group_id')
    .select(SCORE_KEYS.map((k) => `community_ratings.${k}` as const))
    .where('community_ratings.group_id', '=', groupId)
    .where('community_ratings.user_id', '=', userId)
    .whereRef('community_ratings.streamer_id', '=', 'rater_groups.streamer_id')
    .executeTakeFirst();
  return row ?? null;
}

export async function isLocked(db: Db, streamerId: number): Promise<boolean> {
  const row = await db
    .selectFrom('streamers')
    .select('community_locked')
    .where('id', '=', streamerId)
    .executeTakeFirst();
  return row?.community_locked === 1;
}

export async function isMember(db: Db, groupId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('rater_group_members')
    .select('id')
    .where('group_id', '=', groupId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * DECISIONS.md's summary: count, per-criterion averages to one decimal (half up) and their
 * total. Computed in tenths so that no floating-point drift reaches the answer.
 */
export async function communitySummary(db: Db, streamerId: number) {
  const rows = await db
    .selectFrom('community_ratings')
    .select([...SCORE_KEYS])
    .where('streamer_id', '=', streamerId)
    .execute();
  const count = rows.length;
  const avg = {} as Record<ScoreKey, number>;
  let totalTenths = 0;
  for (const k of SCORE_KEYS) {
    const sum = rows.reduce((acc, r) => acc + r[k], 0);
    const tenths = averageTenths(sum, count);
    avg[k] = tenths / 10;
    totalTenths += tenths;
  }
  return { count, avg, total: totalTenths / 10 };
}
