import { type Kysely, type RawBuilder, sql } from 'kysely';
import { isSqlite } from '../dialect.ts';

/**
 * PostgreSQL: the tallies of migration 035 kept once per statement, not once per vote. A group
 * of votes (votes/vote.ts) writes its votes in one statement; 035's trigger ran for each row,
 * two statements each (count the old score out, the new one in), a few milliseconds a group
 * (docs/benchmarks.md, stop 56). Statement-level triggers read the statement's rows as
 * transition tables and change each streamer's tally once, by the sums of its rows: one trigger
 * per kind of change (PostgreSQL allows transition tables on a trigger of one event only).
 * SQLite has no statement-level triggers and keeps 035's, row by row, in process.
 */
const SCORES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;
const h = (score: number) => sql.raw(`h${score}`);
const list = (parts: RawBuilder<unknown>[]) => sql.join(parts, sql.raw(', '));

/** Each streamer's votes among `rows` (a transition table): count, sum and histogram. */
const summed = (rows: 'new_votes' | 'old_votes') =>
  sql`select streamer_id, count(*)::integer as n, sum(score)::integer as s,
    ${list(SCORES.map((s) => sql`count(*) filter (where score = ${sql.lit(s)})::integer as ${h(s)}`))}
    from ${sql.raw(rows)} group by streamer_id`;

/** Counts the statement's new votes in (a first vote of a streamer makes its row). */
const countIn = sql`insert into vote_tallies (streamer_id, vote_count, score_sum, ${list(SCORES.map(h))})
  select streamer_id, n, s, ${list(SCORES.map(h))} from (${summed('new_votes')}) as d
  on conflict (streamer_id) do update set
    vote_count = vote_tallies.vote_count + excluded.vote_count,
    score_sum = vote_tallies.score_sum + excluded.score_sum,
    ${list(SCORES.map((s) => sql`${h(s)} = vote_tallies.${h(s)} + excluded.${h(s)}`))}`;

/** Counts the statement's old votes out. */
const countOut = sql`update vote_tallies as t set
    vote_count = t.vote_count - d.n,
    score_sum = t.score_sum - d.s,
    ${list(SCORES.map((s) => sql`${h(s)} = t.${h(s)} - d.${h(s)}`))}
  from (${summed('old_votes')}) as d
  where t.streamer_id = d.streamer_id`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`drop trigger votes_tally on votes`.execute(db);
  await sql`drop function votes_tally()`.execute(db);
  const fn = (name: string, body: RawBuilder<unknown>) =>
    sql`create function ${sql.raw(name)}() returns trigger language plpgsql as $$
      begin ${body}; return null; end $$`.execute(db);
  await fn('votes_tally_in', countIn);
  await fn('votes_tally_out', countOut);
  await fn('votes_tally_change', sql`${countOut}; ${countIn}`);
  await sql`create trigger votes_tally_in after insert on votes
    referencing new table as new_votes for each statement execute function votes_tally_in()`.execute(db);
  await sql`create trigger votes_tally_change after update on votes
    referencing old table as old_votes new table as new_votes
    for each statement execute function votes_tally_change()`.execute(db);
  await sql`create trigger votes_tally_out after delete on votes
    referencing old table as old_votes for each statement execute function votes_tally_out()`.execute(db);
}
