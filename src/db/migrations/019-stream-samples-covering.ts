import type { Kysely } from 'kysely';

/**
 * `?streams=1` reads a streamer's newest streams' samples (history/queries.ts): about 1,000
 * rows spread over as many pages, since live sync writes every live streamer's sample each
 * minute. The index by stream now holds everything that read needs, in its order (stream, time,
 * id, then the viewers), so it is answered from the index alone: on a year of history for
 * 1,000 streamers the read went from about 1.8 ms to 0.7 ms (docs/benchmarks.md). It replaces
 * the index of migration 014, which it covers.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('stream_samples_read')
    .on('stream_samples')
    .columns(['stream_id', 'at', 'id', 'viewers'])
    .execute();
  await db.schema.dropIndex('stream_samples_by_stream').execute();
}
