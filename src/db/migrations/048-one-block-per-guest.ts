import { type Kysely, sql } from 'kysely';

/**
 * One address block per guest tag (a moderator's week, stop 96): "Block guest" on a second
 * comment of a guest already blocked made a second block, listed twice, and lifting one left
 * the other in force. Of the rows a tag has, the one that ends last stays (the newest of
 * equals); a unique index keeps it one from now on, and a new block of a blocked tag renews
 * that row (moderation/blocks.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    delete from address_blocks where id in (
      select b.id from address_blocks b join address_blocks o on o.guest_tag = b.guest_tag
       and (o.expires_at > b.expires_at or (o.expires_at = b.expires_at and o.id > b.id)))`.execute(db);
  await db.schema
    .createIndex('address_blocks_one_per_tag')
    .on('address_blocks')
    .column('guest_tag')
    .unique()
    .execute();
}
