import type { DbContext } from '../db/context.ts';
import type { Db } from '../db/schema.ts';
import { writeTransaction } from '../db/transaction.ts';
import { headId, type LoggedEvent } from './log.ts';

/**
 * A deliverer of the event log (Discord's; push and mail are the next): it follows the log from
 * its own cursor, a row of `log_cursors`, and turns the events of its kinds into work of its own
 * (Discord: one outbox row per webhook) in the SAME transaction that advances the cursor. So an
 * event is taken up once, never twice, also across a restart or several instances: two that
 * both try find the cursor moved and one of them rolls back. The deliverer's lease (db/lease.ts)
 * keeps the others from trying at all.
 */

/** Events a deliverer takes at once. */
export const DELIVER_BATCH = 500;

/**
 * Whether the log holds events of `types` past the deliverer's cursor (one indexed read), or the
 * deliverer has no cursor yet (its first `takeFromLog` makes it).
 */
export async function hasNewEvents(
  db: Db,
  name: string,
  types: readonly LoggedEvent['type'][],
): Promise<boolean> {
  const row = await db
    .selectFrom('log_cursors as c')
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('event_log as e')
            .select('e.id')
            .where('e.type', 'in', types)
            .whereRef('e.id', '>', 'c.last_id'),
        )
        .as('fresh'),
    )
    .where('c.name', '=', name)
    .executeTakeFirst();
  return row === undefined || Boolean(row.fresh);
}

/** How many events of `types` wait past the deliverer's cursor (none before it has one): its backlog. */
export async function waitingEvents(
  db: Db,
  name: string,
  types: readonly LoggedEvent['type'][],
): Promise<number> {
  const row = await db
    .selectFrom('log_cursors as c')
    .innerJoin('event_log as e', (join) => join.onRef('e.id', '>', 'c.last_id'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('c.name', '=', name)
    .where('e.type', 'in', types)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

class CursorMoved extends Error {}

/**
 * Takes the next events of `types` past the deliverer's cursor and hands them to `take`, which
 * writes what they become; the cursor moves past them in the same transaction. Answers how
 * many it took (0 when another instance moved the cursor first). A deliverer seen for the first
 * time starts at the log's head.
 */
export async function takeFromLog(
  database: DbContext,
  name: string,
  types: readonly LoggedEvent['type'][],
  take: (trx: Db, events: LoggedEvent[]) => Promise<void>,
): Promise<number> {
  try {
    // A write like any other (on SQLite it takes the write lock up front: another process's
    // writes wait on the busy timeout instead of failing), but one no answer shows: it moves no
    // content version (a move would throw away every kept answer a moment after each write).
    return await writeTransaction(
      database,
      async (trx) => {
        const cursor = await trx
          .selectFrom('log_cursors')
          .select('last_id')
          .where('name', '=', name)
          .executeTakeFirst();
        if (!cursor) {
          await trx
            .insertInto('log_cursors')
            .values({ name, last_id: await headId(trx) })
            .onConflict((oc) => oc.column('name').doNothing())
            .execute();
          return 0;
        }
        // The head first: every id up to it is settled (writers append in order, db/event-log.ts),
        // so when fewer than a batch of the kinds come back, the cursor may move to it.
        const head = await headId(trx);
        const events = await trx
          .selectFrom('event_log')
          .selectAll()
          .where('type', 'in', types)
          .where('id', '>', cursor.last_id)
          .where('id', '<=', head)
          .orderBy('id')
          .limit(DELIVER_BATCH)
          .execute();
        const last = events.length === DELIVER_BATCH ? (events.at(-1)?.id ?? head) : head;
        if (last <= cursor.last_id) return 0;
        await take(trx, events);
        const moved = await trx
          .updateTable('log_cursors')
          .set({ last_id: last })
          .where('name', '=', name)
          .where('last_id', '=', cursor.last_id)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) throw new CursorMoved();
        return events.length;
      },
      'none',
    );
  } catch (err) {
    if (err instanceof CursorMoved) return 0;
    throw err;
  }
}
