import { writeTransaction } from '../../src/db/transaction.ts';
import { notifyLive } from '../../src/notifications/notify.ts';
import type { TestApp } from './app.ts';

/**
 * A stream of the streamer starts, as live sync writes it (history/record.ts): the streamer's
 * open stream, if any, ends where it was last seen, a new one starts now, and its `live`
 * notifications are written in one transaction. Answers the new stream's id.
 */
export async function startStream(app: TestApp, streamerId: number): Promise<number> {
  const now = app.clock.now().toISOString();
  await app.db
    .updateTable('streams')
    .set((eb) => ({ ended_at: eb.ref('last_seen_at') }))
    .where('streamer_id', '=', streamerId)
    .where('ended_at', 'is', null)
    .execute();
  const stream = await app.db
    .insertInto('streams')
    .values({ streamer_id: streamerId, started_at: now, last_seen_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await writeTransaction(app.database, (trx) =>
    notifyLive(trx, [{ id: stream.id, streamer_id: streamerId }], now),
  );
  return stream.id;
}
