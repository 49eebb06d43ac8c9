import { type Kysely, sql } from 'kysely';
import { isSqlite } from '../dialect.ts';

/**
 * PostgreSQL: migration 037's `append_staged_events()` read the staged events' time
 * (`staged->>'at'`) in its select list, so once per event, and `json` is text: each read
 * parsed the whole staged document again. A write of n events cost n parses of n events: a
 * go-live to 10,000 followers held the log's lock for more than 12 seconds, and every comment
 * posted meanwhile waited for it (docs/benchmarks.md, stop 60). The time and the rows are now
 * read once, into variables, before the insert.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`create or replace function append_staged_events() returns void language plpgsql as $$
    declare
      staged json := nullif(current_setting('streamer_rating.events', true), '')::json;
      staged_at text;
      staged_rows json;
    begin
      if staged is null then return; end if;
      staged_at := staged->>'at';
      staged_rows := staged->'rows';
      perform pg_advisory_xact_lock(hashtext('streamer_rating_event_log:' || current_schema()));
      insert into event_log (type, streamer_id, user_id, data, created_at)
        select e.v->>0, (e.v->>1)::integer, (e.v->>2)::integer, e.v->>3, staged_at
        from json_array_elements(staged_rows) with ordinality as e(v, n)
        order by e.n;
      perform set_config('streamer_rating.events', '', true);
    end
  $$`.execute(db);
}
