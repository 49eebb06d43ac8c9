import { type Kysely, sql } from 'kysely';

/**
 * The list's comment counts read from an index that holds just them. Every making of the
 * streamers' list counts each streamer's visible comments (neither hidden nor held); with
 * `comments_visible_idx` (migration 004, `where hidden = 0`) each counted comment was also read
 * from the table to see whether it was held: 9.5 ms for 60,000 comments on SQLite, and the list
 * is made anew after each change (a live sync writes once per batch). This partial index has
 * exactly the rows the count wants and is enough for it: 2.6 ms (docs/benchmarks.md, stop 61).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index comments_counted_idx on comments (streamer_id) where hidden = 0 and pending = 0`.execute(
    db,
  );
}
