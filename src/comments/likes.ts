import type { Db } from '../db/schema.ts';

/** Likes or unlikes a comment (one like per user: the primary key); answers its likes. */
export async function setLiked(db: Db, commentId: number, userId: number, liked: boolean, now: string) {
  if (liked) {
    await db
      .insertInto('comment_likes')
      .values({ comment_id: commentId, user_id: userId, created_at: now })
      .onConflict((oc) => oc.doNothing())
      .execute();
  } else {
    await db
      .deleteFrom('comment_likes')
      .where('comment_id', '=', commentId)
      .where('user_id', '=', userId)
      .execute();
  }
  const row = await db
    .selectFrom('comment_likes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('comment_id', '=', commentId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The ids of a streamer's comments this user likes. */
export async function likedBy(db: Db, streamerId: number, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('comment_likes')
    .innerJoin('comments', 'comments.id', 'comment_likes.comment_id')
    .select('comments.id')
    .where('comments.streamer_id', '=', streamerId)
    .where('comment_likes.user_id', '=', userId)
    .orderBy('comments.id')
    .execute();
  return rows.map((r) => r.id);
}
