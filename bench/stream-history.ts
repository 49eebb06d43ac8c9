/**
 * Stream history's write cost (issue 28), alone: `npx tsx bench/stream-history.ts` (SQLite) or
 * with `TEST_DB=postgres TEST_DATABASE_URL=...` (PostgreSQL). `npm run bench` has the same
 * measurement as a row of its table (bench/history-round.ts).
 */
import { createTestDatabase, dbKind } from '../test/helpers/database.ts';
import { BATCH, LIVE_STREAMERS, timeSyncRounds } from './history-round.ts';

const database = await createTestDatabase();
try {
  const t = await timeSyncRounds(database);
  console.log(
    `${dbKind}: ${LIVE_STREAMERS} streamers live, batches of ${BATCH}: first round (streams start) ${t.first.toFixed(0)} ms, ` +
      `next rounds ${t.next.map((n) => n.toFixed(0)).join(', ')} ms; ${t.streams} streams, ${t.samples} samples`,
  );
} finally {
  await database.cleanup();
}
