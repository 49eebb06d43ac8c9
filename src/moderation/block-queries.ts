import type { Db } from '../db/schema.ts';

/**
 * Blocks a guest tag: its one row (migration 048), made or renewed. A tag blocked already keeps
 * its block (and its id) until the later of the two ends, with who blocked it now and for which
 * comment; a block of the tag that has ended makes way for a new one (a new id, newest in the list).
 */
export async function putBlock(
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
  await db
    .deleteFrom('address_blocks')
    .where('guest_tag', '=', b.guest_tag)
    .where('expires_at', '<=', b.created_at)
    .execute();
  const old = await db
    .selectFrom('address_blocks')
    .select('expires_at')
    .where('guest_tag', '=', b.guest_tag)
    .executeTakeFirst();
  const expires_at = old && old.expires_at > b.expires_at ? old.expires_at : b.expires_at;
  const { guest_tag: _tag, ...renewed } = { ...b, expires_at };
  const row = await db
    .insertInto('address_blocks')
    .values({ ...b, expires_at })
    .onConflict((oc) => oc.column('guest_tag').doUpdateSet(renewed))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

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
