import type { Kysely } from 'kysely';
import { addChecks } from '../dialect.ts';

/**
 * Schedules (DECISIONS.md "Fifth wave" → "Schedules"). `schedules`: one row per streamer whose
 * schedule is known or was asked for: where it comes from (`provider`: read from Twitch;
 * `manual`: kept by hand; null: Twitch answered 404, no schedule), the vacation Twitch gave,
 * and when live sync last read it (the once-an-hour rule). `schedule_segments`: the segments,
 * one per streamer and start (hand-kept segments may not overlap; a provider's duplicates are
 * dropped on the way in), with a `uid` that stays the same across reads (the iCalendar UID).
 * Both go with the streamer (cascade).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('schedules')
    .addColumn('streamer_id', 'integer', (c) =>
      c.primaryKey().notNull().references('streamers.id').onDelete('cascade'),
    )
    .addColumn('source', 'text')
    .addColumn('vacation_start', 'text')
    .addColumn('vacation_end', 'text')
    .addColumn('read_at', 'text')
    .execute();
  await addChecks(db, 'schedules', {
    schedules_source_check: `"source" is null or "source" in ('provider', 'manual')`,
  });
  await db.schema
    .createTable('schedule_segments')
    .addColumn('streamer_id', 'integer', (c) =>
      c.notNull().references('schedules.streamer_id').onDelete('cascade'),
    )
    .addColumn('start_at', 'text', (c) => c.notNull())
    .addColumn('end_at', 'text', (c) => c.notNull())
    .addColumn('uid', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('game', 'text', (c) => c.notNull())
    .addColumn('canceled', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('schedule_segments_pkey', ['streamer_id', 'start_at'])
    .execute();
  await addChecks(db, 'schedule_segments', {
    schedule_segments_canceled_check: `"canceled" in (0, 1)`,
    schedule_segments_order_check: `"start_at" < "end_at"`,
  });
  // The site's upcoming list and calendar read by time.
  await db.schema.createIndex('schedule_segments_start').on('schedule_segments').column('start_at').execute();
}
