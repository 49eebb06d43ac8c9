import { type Kysely, sql } from 'kysely';
import { isSqlite } from '../dialect.ts';

/**
 * PostgreSQL: appending to the event log is one call (events/log.ts `appendEvents`) that takes
 * the log's lock (per schema, held until the transaction ends) and then inserts the events, in
 * that order, as a function's two statements do: one round trip where a lock and an insert took
 * two, so the lock is held for one round trip and the commit. The lock makes the ids of
 * concurrent writers commit in the order they were drawn (a reader that saw id N never sees a
 * smaller one appear later). SQLite has one writer at a time and needs neither.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`create or replace function append_events(
      types text[], streamer_ids integer[], user_ids integer[], datas text[], created text)
    returns void language sql as $$
      select pg_advisory_xact_lock(hashtext('streamer_rating_event_log:' || current_schema()));
      insert into event_log (type, streamer_id, user_id, data, created_at)
        select e.type, e.streamer_id, e.user_id, e.data, created
        from unnest(types, streamer_ids, user_ids, datas) with ordinality as e(type, streamer_id, user_id, data, n)
        order by e.n;
    $$`.execute(db);
}
