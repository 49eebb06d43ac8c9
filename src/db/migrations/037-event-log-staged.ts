import { type Kysely, sql } from 'kysely';
import { isSqlite } from '../dialect.ts';

/**
 * PostgreSQL: the log's lock is taken in the round trip that commits. A write stages its events
 * as a transaction-local setting (a parameter, db/event-log.ts `stageEvents`), and
 * `append_staged_events()` goes with the COMMIT as one query of several statements (the simple
 * protocol takes no parameters): it takes the log's lock (per schema, held until the transaction
 * ends), then inserts the staged events in their order. The lock makes the ids of concurrent
 * writers commit in the order they were drawn (a reader that saw id N never sees a smaller one
 * appear later). Migration 024's `append_events` took it a round trip before the commit, so a
 * second writer waited for the first's answer to cross the service's busy event loop as well
 * (5 ms a group under the posting load). SQLite has one writer at a time and needs neither.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`drop function if exists append_events(text[], integer[], integer[], text[], text)`.execute(db);
  await sql`create or replace function append_staged_events() returns void language plpgsql as $$
    declare
      staged json := nullif(current_setting('streamer_rating.events', true), '')::json;
    begin
      if staged is null then return; end if;
      perform pg_advisory_xact_lock(hashtext('streamer_rating_event_log:' || current_schema()));
      insert into event_log (type, streamer_id, user_id, data, created_at)
        select e.v->>0, (e.v->>1)::integer, (e.v->>2)::integer, e.v->>3, staged->>'at'
        from json_array_elements(staged->'rows') with ordinality as e(v, n)
        order by e.n;
      perform set_config('streamer_rating.events', '', true);
    end
  $$`.execute(db);
}
