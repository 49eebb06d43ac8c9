import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { DbContext } from '../db/context.ts';
import { writeTransaction } from '../db/transaction.ts';
import { DAY, HOUR } from '../lib/clock.ts';
import { HISTORY } from '../shared/history.ts';
import { refreshStats, statsCutoff } from './stats.ts';

/** Rows one statement of the upkeep touches: small, so that no request waits on it. */
const BATCH = 500;

const before = (now: Date, ms: number) => new Date(now.getTime() - ms).toISOString();

/**
 * The history's upkeep, run by the instance that holds the sync lease after each round: in
 * small statements with a turn of the event loop between them. Samples older than 30 days
 * and streams older than 365 go; an open stream not seen for staleHours is ended (sync was
 * off, or the streamer moved platform); figures whose oldest stream left the 30-day window
 * are made again (a content write: the lists change).
 */
export async function maintainHistory(database: DbContext, now: Date): Promise<void> {
  const { db } = database;
  const sampleCut = before(now, HISTORY.samplesDays * DAY);
  while (
    Number(
      (
        await db
          .deleteFrom('stream_samples')
          .where('id', 'in', (eb) =>
            eb.selectFrom('stream_samples').select('id').where('at', '<', sampleCut).limit(BATCH),
          )
          .executeTakeFirst()
      ).numDeletedRows,
    ) === BATCH
  ) {
    await yieldToRequests();
  }
  const streamCut = before(now, HISTORY.streamsDays * DAY);
  while (
    Number(
      (
        await db
          .deleteFrom('streams')
          .where('id', 'in', (eb) =>
            eb
              .selectFrom('streams')
              .select('id')
              .where('started_at', '<', streamCut)
              .where('ended_at', 'is not', null)
              .limit(BATCH),
          )
          .executeTakeFirst()
      ).numDeletedRows,
    ) === BATCH
  ) {
    await yieldToRequests();
  }
  const stale = before(now, HISTORY.staleHours * HOUR);
  const lost = await db
    .selectFrom('streams')
    .select('id')
    .where('ended_at', 'is', null)
    .where('last_seen_at', '<', stale)
    .limit(BATCH)
    .execute();
  if (lost.length > 0) {
    await writeTransaction(database, (trx) =>
      trx
        .updateTable('streams')
        .set((eb) => ({ ended_at: eb.ref('last_seen_at') }))
        .where(
          'id',
          'in',
          lost.map((l) => l.id),
        )
        .execute(),
    );
  }
  for (;;) {
    const aged = await db
      .selectFrom('stream_stats')
      .select('streamer_id')
      .where('oldest_start', '<', statsCutoff(now))
      .limit(BATCH)
      .execute();
    if (aged.length === 0) return;
    await writeTransaction(database, (trx) =>
      refreshStats(
        trx,
        aged.map((a) => a.streamer_id),
        now,
      ),
    );
    await yieldToRequests();
  }
}
