import { type Kysely, sql } from 'kysely';

/**
 * Who speaks for a streamer (catalogue/speaks-for.ts) looks its channel up among the users by
 * their login folded and trimmed, `trim(login_key)`: without an index on that expression each
 * look read every user, and a vote asks it (a million votes' bench: most of a vote's time).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('users_login_key_trimmed_idx')
    .on('users')
    .expression(sql`trim(login_key)`)
    .execute();
}
