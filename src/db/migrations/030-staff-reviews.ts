import { type Kysely, sql } from 'kysely';
import { idColumn } from '../dialect.ts';

/**
 * Staff reviews (DECISIONS.md "Fifth wave" → "Staff reviews"). The database holds the rules a
 * race could break:
 * - `staff_reviews`: one review (or abstention) per staff member and streamer, by two partial
 *   unique indexes: one per signed-in reviewer (`user_id`), one for the shared password's
 *   administrator (`user_id` null, who has no account). An abstention carries no scores, a
 *   review all seven, each 0 to 10 (CHECKs). Gone with the streamer or the reviewer's account.
 * - `rerating_requests`: the verified streamer's requests; at most one open (`closed_at` null)
 *   per streamer, a partial unique index. A publish closes it.
 * - `review_publishes`: when a streamer's reviews were last published (the 90 days a new
 *   request waits for).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = idColumn(db);
  const scores = ['s', 'g', 'a', 'v', 'n', 'ns', 'o'];
  let reviews = db.schema
    .createTable('staff_reviews')
    .addColumn('id', idType, idDef)
    .addColumn('streamer_id', 'integer', (c) => c.notNull().references('streamers.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('abstain', 'integer', (c) => c.notNull().defaultTo(0));
  for (const k of scores) reviews = reviews.addColumn(k, 'integer');
  await reviews
    .addColumn('note', 'text')
    .addColumn('at', 'text', (c) => c.notNull())
    .addCheckConstraint('staff_reviews_abstain_check', sql`"abstain" in (0, 1)`)
    .addCheckConstraint(
      'staff_reviews_scores_check',
      sql.raw(
        `("abstain" = 1 and ${scores.map((k) => `"${k}" is null`).join(' and ')}) or ` +
          `("abstain" = 0 and ${scores.map((k) => `"${k}" between 0 and 10`).join(' and ')})`,
      ),
    )
    .execute();
  await sql`create unique index staff_reviews_one_each on staff_reviews (streamer_id, user_id) where user_id is not null`.execute(
    db,
  );
  await sql`create unique index staff_reviews_one_password on staff_reviews (streamer_id) where user_id is null`.execute(
    db,
  );
  await db.schema.createIndex('staff_reviews_user').on('staff_reviews').column('user_id').execute();

  await db.schema
    .createTable('rerating_requests')
    .addColumn('id', idType, idDef)
    .addColumn('streamer_id', 'integer', (c) => c.notNull().references('streamers.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('closed_at', 'text')
    .execute();
  await sql`create unique index rerating_requests_one_open on rerating_requests (streamer_id) where closed_at is null`.execute(
    db,
  );
  await db.schema.createIndex('rerating_requests_user').on('rerating_requests').column('user_id').execute();

  await db.schema
    .createTable('review_publishes')
    .addColumn('streamer_id', 'integer', (c) =>
      c.primaryKey().notNull().references('streamers.id').onDelete('cascade'),
    )
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
}
