import type { Db } from '../db/schema.ts';

/** How many streamers the user follows. */
export async function followCount(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('follows')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether the user follows the streamer. */
export async function isFollowing(db: Db, userId: number, streamerId: number): Promise<boolean> {
  const row = await db
    .selectFrom('follows')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('streamer_id', '=', streamerId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Adds the follow (a repeat meets the primary key and changes nothing). */
export async function addFollow(db: Db, userId: number, streamerId: number, now: string): Promise<void> {
  await db
    .insertInto('follows')
    .values({ user_id: userId, streamer_id: streamerId, created_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'streamer_id']).doNothing())
    .execute();
}

export async function removeFollow(db: Db, userId: number, streamerId: number): Promise<void> {
  await db
    .deleteFrom('follows')
    .where('user_id', '=', userId)
    .where('streamer_id', '=', streamerId)
    .execute();
}

/** The streamer's followers. */
export async function followerCount(db: Db, streamerId: number): Promise<number> {
  const row = await db
    .selectFrom('follows')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('streamer_id', '=', streamerId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The streamers the user follows, by id, ascending: all of them (at most FOLLOW_LIMIT), or a
 * page as the comments' pages go (DECISIONS.md "Fifth wave": every new list answers in pages),
 * the `limit` highest ids below `before`.
 */
export async function followedIds(
  db: Db,
  userId: number,
  page: { limit: number; before: number | null } | null = null,
): Promise<number[]> {
  let q = db.selectFrom('follows').select('streamer_id').where('user_id', '=', userId);
  if (page === null) return (await q.orderBy('streamer_id').execute()).map((r) => r.streamer_id);
  if (page.before !== null) q = q.where('streamer_id', '<', page.before);
  const rows = await q.orderBy('streamer_id', 'desc').limit(page.limit).execute();
  return rows.map((r) => r.streamer_id).reverse();
}

/** The user's follows, for the account export. */
export async function followsOf(db: Db, userId: number) {
  return db
    .selectFrom('follows')
    .innerJoin('streamers', 'streamers.id', 'follows.streamer_id')
    .select(['follows.streamer_id', 'streamers.name as streamer_name', 'follows.created_at'])
    .where('follows.user_id', '=', userId)
    .orderBy('follows.streamer_id')
    .execute();
}
