import { type Kysely, sql } from 'kysely';

/**
 * Streamers speak for themselves (issue 26, DECISIONS.md "Fourth wave"): the account id live
 * sync learnt for a streamer's channel, with the channel it was learnt for (the id only counts
 * while the streamer's platform and channel are still those), and the right of reply: one
 * reply per streamer, kept with who wrote it and the rating it answered; and the signed-in
 * account that suggested a streamer.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('streamers').addColumn('account_id', 'text').execute();
  await db.schema.alterTable('streamers').addColumn('account_channel', 'text').execute();
  // The signed-in account that suggested a streamer ("The changes": staff see it, never the label).
  await db.schema
    .alterTable('streamers')
    .addColumn('suggested_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();

  await db.schema
    .createTable('streamer_replies')
    .addColumn('streamer_id', 'integer', (c) =>
      c.primaryKey().notNull().references('streamers.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull().check(sql`length(body) between 2 and 1000`))
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('rating_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('streamer_replies_user_idx').on('streamer_replies').column('user_id').execute();
}
