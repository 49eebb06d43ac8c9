import { type Kysely, type RawBuilder, sql } from 'kysely';
import { isSqlite } from '../dialect.ts';

/**
 * Issue 44's speed: a streamer's votes counted as they change, not summed over every vote each
 * time the list is made. `vote_tallies` holds one row per streamer that has had a vote: how many
 * votes, their sum and how many of each score (the histogram), kept by triggers on `votes` in
 * the vote's own statement, so that no write path (the API, an import, a deleted user's or
 * streamer's cascade) can leave them apart. CHECKs tie the count and the sum to the histogram.
 * A streamer whose last vote goes keeps a row of zeros.
 */
const SCORES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;
const h = (score: number) => sql.raw(`h${score}`);
/** 1 where the row's score is this one, else 0: both databases read it the same way. */
const is = (row: 'new' | 'old' | 'votes', score: number) =>
  sql.raw(`case when ${row}.score = ${score} then 1 else 0 end`);
const list = (parts: RawBuilder<unknown>[]) => sql.join(parts, sql.raw(', '));

/** Counts the new row's vote in (a first vote of the streamer makes its row). */
const countIn = sql`insert into vote_tallies (streamer_id, vote_count, score_sum, ${list(SCORES.map(h))})
  values (new.streamer_id, 1, new.score, ${list(SCORES.map((s) => is('new', s)))})
  on conflict (streamer_id) do update set
    vote_count = vote_tallies.vote_count + 1,
    score_sum = vote_tallies.score_sum + excluded.score_sum,
    ${list(SCORES.map((s) => sql`${h(s)} = vote_tallies.${h(s)} + excluded.${h(s)}`))}`;

/** Counts the old row's vote out. */
const countOut = sql`update vote_tallies set
    vote_count = vote_count - 1,
    score_sum = score_sum - old.score,
    ${list(SCORES.map((s) => sql`${h(s)} = ${h(s)} - ${is('old', s)}`))}
  where streamer_id = old.streamer_id`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  let table = db.schema
    .createTable('vote_tallies')
    .addColumn('streamer_id', 'integer', (c) => c.primaryKey().references('streamers.id').onDelete('cascade'))
    .addColumn('vote_count', 'integer', (c) => c.notNull().check(sql`vote_count >= 0`))
    .addColumn('score_sum', 'integer', (c) => c.notNull());
  for (const s of SCORES)
    table = table.addColumn(`h${s}`, 'integer', (c) => c.notNull().check(sql`${h(s)} >= 0`));
  await table
    .addCheckConstraint('vote_tallies_count', sql`vote_count = ${sql.join(SCORES.map(h), sql.raw(' + '))}`)
    .addCheckConstraint(
      'vote_tallies_sum',
      sql`score_sum = ${sql.join(
        SCORES.map((s) => sql`${sql.lit(s)} * ${h(s)}`),
        sql.raw(' + '),
      )}`,
    )
    .execute();

  await sql`insert into vote_tallies (streamer_id, vote_count, score_sum, ${list(SCORES.map(h))})
    select streamer_id, count(*), sum(score), ${list(SCORES.map((s) => sql`sum(${is('votes', s)})`))}
    from votes group by streamer_id`.execute(db);

  if (isSqlite(db)) {
    await sql`create trigger votes_count_in after insert on votes begin ${countIn}; end`.execute(db);
    await sql`create trigger votes_recount after update on votes begin ${countOut}; ${countIn}; end`.execute(
      db,
    );
    await sql`create trigger votes_count_out after delete on votes begin ${countOut}; end`.execute(db);
    return;
  }
  await sql`create function votes_tally() returns trigger language plpgsql as $$
    begin
      if tg_op in ('UPDATE', 'DELETE') then ${countOut}; end if;
      if tg_op in ('INSERT', 'UPDATE') then ${countIn}; end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger votes_tally after insert or update or delete on votes
    for each row execute function votes_tally()`.execute(db);
}
