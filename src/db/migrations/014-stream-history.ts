import { type Kysely, sql } from 'kysely';
import { idColumn } from '../dialect.ts';

/**
 * Stream history (DECISIONS.md "Fourth wave / Stream history", issue 28): the streams live
 * sync has seen, their samples, and each streamer's last-30-days figures, kept up to date by
 * the sync write so the streamer list reads them instead of computing them. One open stream
 * per streamer is the database's rule (a partial unique index), so a restart or a second
 * instance can never start a second one.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = idColumn(db);
  await db.schema
    .createTable('streams')
    .addColumn('id', idType, idDef)
    .addColumn('streamer_id', 'integer', (c) => c.notNull().references('streamers.id').onDelete('cascade'))
    .addColumn('started_at', 'text', (c) => c.notNull())
    /** The last check that saw it live, once it has ended; null while open. */
    .addColumn('ended_at', 'text')
    /** The last check that saw it live. */
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('samples', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('viewer_sum', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('peak_viewers', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    /** JSON: samples per game name, `{"Elden Ring": 3}`. */
    .addColumn('games', 'text', (c) => c.notNull().defaultTo('{}'))
    .addCheckConstraint(
      'streams_counts_check',
      sql`"samples" >= 0 and "viewer_sum" >= 0 and "peak_viewers" >= 0`,
    )
    .addCheckConstraint('streams_order_check', sql`"last_seen_at" >= "started_at"`)
    .addCheckConstraint('streams_end_check', sql`"ended_at" is null or "ended_at" = "last_seen_at"`)
    .execute();
  await db.schema
    .createIndex('streams_one_open')
    .unique()
    .on('streams')
    .column('streamer_id')
    .where(sql.ref('ended_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('streams_by_streamer')
    .on('streams')
    .columns(['streamer_id', 'started_at'])
    .execute();
  await db.schema.createIndex('streams_by_start').on('streams').column('started_at').execute();

  const [sampleIdType, sampleIdDef] = idColumn(db);
  await db.schema
    .createTable('stream_samples')
    .addColumn('id', sampleIdType, sampleIdDef)
    .addColumn('stream_id', 'integer', (c) => c.notNull().references('streams.id').onDelete('cascade'))
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('viewers', 'integer', (c) => c.notNull())
    .addColumn('game', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addCheckConstraint('stream_samples_viewers_check', sql`"viewers" >= 0`)
    .execute();
  await db.schema
    .createIndex('stream_samples_by_stream')
    .on('stream_samples')
    .columns(['stream_id', 'at'])
    .execute();
  await db.schema.createIndex('stream_samples_by_time').on('stream_samples').column('at').execute();

  await db.schema
    .createTable('stream_stats')
    .addColumn('streamer_id', 'integer', (c) => c.primaryKey().references('streamers.id').onDelete('cascade'))
    .addColumn('streams', 'integer', (c) => c.notNull())
    /** Seconds streamed: from each stream's start to the last check that saw it live. */
    .addColumn('seconds', 'integer', (c) => c.notNull())
    .addColumn('samples', 'integer', (c) => c.notNull())
    .addColumn('viewer_sum', 'bigint', (c) => c.notNull())
    .addColumn('peak_viewers', 'integer', (c) => c.notNull())
    .addColumn('top_game', 'text')
    /** The start of the oldest stream counted: once it leaves the window the row is made again. */
    .addColumn('oldest_start', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stream_stats_oldest').on('stream_stats').column('oldest_start').execute();
}
