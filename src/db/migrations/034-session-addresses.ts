import type { Kysely } from 'kysely';

/**
 * The addresses sessions use (issue 45 item 5, DECISIONS.md "Moderators' tools": a ban
 * remembers the guest tags of the user's sessions, not only of their sign-ins):
 * - `sessions.guest_tag` and `guest_tag_at`: the address the session last recorded in
 *   `user_addresses`, and when, loaded with the session, so that a request writes only when its
 *   address differs from that one (or it was recorded a day ago): reading pages is no write;
 * - `user_addresses (guest_tag, seen_at)`: a guest's post asks whether a timed-out user used
 *   its address lately (guests/rules.ts `ADDRESS_TIMED_OUT`), by address, not by user.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('guest_tag', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('guest_tag_at', 'text').execute();
  await db.schema
    .createIndex('user_addresses_tag_idx')
    .on('user_addresses')
    .columns(['guest_tag', 'seen_at'])
    .execute();
}
