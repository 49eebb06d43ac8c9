/**
 * Stream history's write cost (issue 28): 10,000 streamers live at once, one sync round's
 * database work (the provider answers are made in memory, 100 channels a batch as provider_a's
 * checks are), timed per round. Run alone: `npx tsx bench/stream-history.ts` (SQLite) or with
 * `TEST_DB=postgres TEST_DATABASE_URL=...` (PostgreSQL).
 */
import { performance } from 'node:perf_hooks';
import { migrateToLatest } from '../src/db/migrator.ts';
import { writeTransaction } from '../src/db/transaction.ts';
import type { BatchAnswer, LiveStream } from '../src/sync/provider.ts';
import { applyBatch, syncTargets } from '../src/sync/queries.ts';
import { createTestDatabase, dbKind } from '../test/helpers/database.ts';

const STREAMERS = 10_000;
const BATCH = 100;
const database = await createTestDatabase();
try {
  await migrateToLatest(database.db);
  const now0 = Date.parse('2026-11-27T00:00:00.000Z');
  for (let k = 0; k < STREAMERS; k += 500) {
    await database.db
      .insertInto('streamers')
      .values(
        Array.from({ length: Math.min(500, STREAMERS - k) }, (_, i) => ({
          name: `Bench ${k + i}`,
          name_key: `bench ${k + i}`,
          platform: 'provider_a' as const,
          kick_name: '',
          provider_a: `bench_${k + i}`,
          status: 'offline' as const,
          game: '',
          title: '',
          evaluated: 0,
          community_locked: 0,
          added_by: 'admin' as const,
          submitter: '',
          created_at: new Date(now0).toISOString(),
        })),
      )
      .execute();
  }
  const targets = await syncTargets(database.db, 'provider_a');
  const round = async (r: number) => {
    const now = new Date(now0 + r * 60_000).toISOString();
    const started = performance.now();
    for (let k = 0; k < targets.length; k += BATCH) {
      const batch = targets.slice(k, k + BATCH);
      const live = new Map<string, LiveStream>(
        batch.map((t, i) => [
          t.channel,
          {
            game: `Game ${(i + r) % 7}`,
            title: `Title ${r}`,
            viewers: 100 + i + r,
            since: new Date(now0 - 60_000).toISOString(),
          },
        ]),
      );
      const answer: BatchAnswer = { live, avatars: new Map(), ids: new Map() };
      await writeTransaction(database, (trx) => applyBatch(trx, 'provider_a', batch, answer, now));
    }
    return performance.now() - started;
  };
  const first = await round(0);
  const times = [await round(1), await round(2), await round(3)];
  const samples = await database.db
    .selectFrom('stream_samples')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  const streams = await database.db
    .selectFrom('streams')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  console.log(
    `${dbKind}: ${STREAMERS} streamers live, batches of ${BATCH}: first round (streams start) ${first.toFixed(0)} ms, ` +
      `next rounds ${times.map((t) => t.toFixed(0)).join(', ')} ms; ${String(streams?.n)} streams, ${String(samples?.n)} samples`,
  );
} finally {
  await database.cleanup();
}
