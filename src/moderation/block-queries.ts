import type { Db } from '../db/schema.ts';

export async function insertBlock(
  db: Db,
  b: {
    guest_tag: string;
    created_at: string;
    expires_at: string;
    created_by: string;
    created_by_user_id: number | null;
    comment_id: number;
  },
): Promise<number> {
  const row = await db.insertInto('address_blocks').values(b).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Active blocks, newest first. */
/** Active blocks, newest first: a page of `limit` below the id `before`. */
export async function listBlocks(db: Db, now: string, limit: number, before: number | null) {
  let query = db
    .selectFrom('address_blocks')
    .select(['id', 'guest_tag', 'created_at', 'expires_at', 'created_by', 'comment_id'])
    .where('expires_at', '>', now);
  if (before !== null) query = query.where('id', '<', before);
  return query.orderBy('id', 'desc').limit(limit).execute();
}

export async function findBlock(db: Db, id: number) {
  return db
    .selectFrom('address_blocks')
    .select(['id', 'guest_tag', 'expires_at', 'comment_id'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function deleteBlock(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('address_blocks').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
