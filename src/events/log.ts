import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { Db, EventLogTable } from '../db/schema.ts';
import { DAY, MINUTE } from '../lib/clock.ts';

/**
 * The event log's reading side (docs/architecture.md "Where an event goes"): the rows that
 * committed writes appended (db/event-log.ts writes them), read by the streams (tail.ts,
 * streams.ts) and the deliverers (deliverer.ts) from their own cursors, replayed to a stream
 * that reconnects, and pruned by age.
 */

/** An event as the log holds it: its id, and its own fields as JSON in `data`. */
export interface LoggedEvent {
  id: number;
  type: EventLogTable['type'];
  streamer_id: number | null;
  user_id: number | null;
  data: string;
  created_at: string;
}

/** A reconnecting stream is replayed what it missed when its last id is at most this old... */
export const REPLAY_WINDOW_MS = 10 * MINUTE;
/** ...and at most this many events of the site came after it (DECISIONS.md "Live updates that resume"). */
export const REPLAY_MAX_EVENTS = 1_000;
/** Rows older than this are pruned (a deliverer handles its events within seconds). */
export const LOG_KEPT_FOR = DAY;

/** The last id of the log (0 when empty). */
export async function headId(db: Db): Promise<number> {
  const row = await db
    .selectFrom('event_log')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** Events after `after`, oldest first, at most `limit`; `types` to keep only those kinds. */
export async function eventsAfter(
  db: Db,
  after: number,
  limit: number,
  types?: readonly LoggedEvent['type'][],
): Promise<LoggedEvent[]> {
  let query = db.selectFrom('event_log').selectAll().where('id', '>', after);
  if (types) query = query.where('type', 'in', types);
  return query.orderBy('id').limit(limit).execute();
}

/**
 * Whether a client's last id can be replayed: an id the log holds, at most REPLAY_WINDOW_MS old,
 * with at most REPLAY_MAX_EVENTS after it.
 */
export async function replayable(db: Db, lastId: number, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('event_log')
    .select('created_at')
    .where('id', '=', lastId)
    .executeTakeFirst();
  if (!row || row.created_at < new Date(now.getTime() - REPLAY_WINDOW_MS).toISOString()) return false;
  const beyond = await db
    .selectFrom('event_log')
    .select('id')
    .where('id', '>', lastId)
    .orderBy('id')
    .offset(REPLAY_MAX_EVENTS)
    .limit(1)
    .executeTakeFirst();
  return beyond === undefined;
}

/**
 * What one stream missed between `after` and `upTo`: its streamer's events and, for a
 * signed-in user, their own `notification`s, oldest first.
 */
export async function missedEvents(
  db: Db,
  after: number,
  upTo: number,
  who: { streamerId: number | null; userId: number | null },
): Promise<LoggedEvent[]> {
  if (who.streamerId === null && who.userId === null) return [];
  return db
    .selectFrom('event_log')
    .selectAll()
    .where('id', '>', after)
    .where('id', '<=', upTo)
    .where((eb) =>
      eb.or([
        ...(who.streamerId !== null
          ? [eb.and([eb('streamer_id', '=', who.streamerId), eb('type', '!=', 'discord')])]
          : []),
        ...(who.userId !== null
          ? [eb.and([eb('type', '=', 'notification'), eb('user_id', '=', who.userId)])]
          : []),
      ]),
    )
    .orderBy('id')
    .execute();
}

/** Rows one statement of the pruning deletes: small, so that no write waits long on it. */
const PRUNE_BATCH = 1_000;

/** Deletes rows older than LOG_KEPT_FOR, in small statements; answers how many went. */
export async function pruneLog(db: Db, now: Date): Promise<number> {
  const cut = new Date(now.getTime() - LOG_KEPT_FOR).toISOString();
  let total = 0;
  for (;;) {
    const result = await db
      .deleteFrom('event_log')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('event_log')
          .select('id')
          .where('created_at', '<', cut)
          .orderBy('id')
          .limit(PRUNE_BATCH),
      )
      .executeTakeFirst();
    const n = Number(result.numDeletedRows);
    total += n;
    if (n < PRUNE_BATCH) return total;
    await yieldToRequests();
  }
}
