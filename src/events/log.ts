import { setImmediate as yieldToRequests } from 'node:timers/promises';
import { type CompiledQuery, sql } from 'kysely';
import { isSqlite } from '../db/dialect.ts';
import type { Db, EventLogTable } from '../db/schema.ts';
import type { DiscordEvent } from '../shared/rules.ts';
import { DAY, MINUTE } from '../lib/clock.ts';

/**
 * The event log (docs/architecture.md "Where an event goes"): every operation that changes what
 * others see publishes its events inside its own transaction, and they become rows of
 * `event_log` when it commits, never when it fails. Streams (events/tail.ts, streams.ts) and
 * deliverers (deliverer.ts: Discord) follow the rows from their own cursors.
 *
 * The events of the live streams carry ids and numbers only, never text (DECISIONS.md "Live
 * updates"); `notification` names the user whose unread count changed (each of their streams
 * asks for the count), and the notifications created for them, which the push deliverer sends
 * (never on a stream). `discord` is a message for Discord's webhooks (discord/deliver.ts).
 */
export type LiveEvent =
  | { type: 'comment'; id: number; streamer_id: number }
  | { type: 'comment_removed'; id: number; streamer_id: number }
  | { type: 'rating'; streamer_id: number }
  | { type: 'live'; streamer_id: number; status: string; viewers: number }
  /** `created`: the ids of the notifications the change created for the user (push/ delivers them). */
  | { type: 'notification'; user_id: number; created?: number[] };

/** What Discord's message shows (discord/events.ts makes it). */
export interface EventEmbed {
  title: string;
  /** The page's path; the sender makes it absolute. */
  path: string;
  description: string;
  color: number;
  timestamp: string;
}

export type DiscordPost = { type: 'discord'; kind: DiscordEvent; embed: EventEmbed };

export type LogEvent = LiveEvent | DiscordPost;

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

/** A row of the log for an event. */
function rowOf(event: LogEvent, at: string) {
  switch (event.type) {
    case 'notification':
      return {
        type: event.type,
        streamer_id: null,
        user_id: event.user_id,
        data: event.created?.length ? JSON.stringify({ created: event.created }) : '{}',
        created_at: at,
      };
    case 'discord':
      return {
        type: event.type,
        streamer_id: null,
        user_id: null,
        data: JSON.stringify({ kind: event.kind, embed: event.embed }),
        created_at: at,
      };
    default: {
      const { type, ...data } = event;
      return {
        type,
        streamer_id: event.streamer_id,
        user_id: null,
        data: JSON.stringify(data),
        created_at: at,
      };
    }
  }
}

/**
 * The events published inside each open write (db/transaction.ts opens and closes them): kept
 * until the write is about to commit, then appended in one insert. A write that fails throws
 * its events away with its other changes.
 */
const scopes = new WeakMap<object, LogEvent[]>();

/** Opens a write's buffer of events (db/transaction.ts). */
export function openEvents(trx: Db): void {
  scopes.set(trx, []);
}

/** Closes a write's buffer and hands over what it holds (nothing if the write failed). */
export function takeEvents(trx: Db): LogEvent[] {
  const events = scopes.get(trx) ?? [];
  scopes.delete(trx);
  return events;
}

/**
 * Inside a write (db/transaction.ts `writeTransaction`): publish events. They reach the log
 * when the write commits, and never if it fails.
 */
export function publish(trx: Db, events: LogEvent[]): void {
  if (events.length === 0) return;
  const scope = scopes.get(trx);
  if (!scope) throw new Error('events are published inside writeTransaction only');
  scope.push(...events);
}

/** The most events one SQLite INSERT appends (each binds a handful of values): a power of two. */
export const SQLITE_EVENTS_PER_INSERT = 512;

/**
 * The sizes of the SQLite INSERTs that append `count` events: the largest powers of two that
 * add up to it (89: 64, 16, 8, 1). SQLite keeps a prepared statement for each text
 * (db/connect.ts), and an INSERT of n rows is one text per n: a statement for each group size
 * up to 200 took 10 MiB of the service's memory under 200 connections posting.
 */
export function insertSizes(count: number): number[] {
  const sizes: number[] = [];
  for (let left = count; left > 0;) {
    const size = Math.min(SQLITE_EVENTS_PER_INSERT, 2 ** Math.floor(Math.log2(left)));
    sizes.push(size);
    left -= size;
  }
  return sizes;
}

/**
 * PostgreSQL: the statement, without parameters, that appends the events `stageEvents` staged: it
 * goes in the round trip of the COMMIT (db/transaction.ts), so that the log's lock it takes is
 * held for that round trip only (migration 037).
 */
export const APPEND_STAGED = 'select append_staged_events()';

/** PostgreSQL's transaction-local setting that holds a write's events until its commit (migration 037). */
const STAGED_SETTING = 'streamer_rating.events';

/**
 * Hands a write's events to the log, inside the transaction that commits them, as the last thing
 * the write does. SQLite (one writer at a time) inserts them, and answers null. PostgreSQL
 * answers the statement that stages them, one parameter, for `APPEND_STAGED`: the commit's round
 * trip sends it first (db/transaction.ts), then `APPEND_STAGED`, which takes the log's lock (per
 * schema, held until the transaction ends), so that the ids of concurrent writers commit in the
 * order they were drawn (a reader that saw id N never sees a smaller one appear later), and
 * inserts them.
 */
export async function stageEvents(trx: Db, events: LogEvent[], at: string): Promise<CompiledQuery | null> {
  if (events.length === 0) return null;
  const rows = events.map((e) => rowOf(e, at));
  if (isSqlite(trx)) {
    // In order: the ids are drawn as the rows come.
    let from = 0;
    for (const size of insertSizes(rows.length)) {
      await trx
        .insertInto('event_log')
        .values(rows.slice(from, from + size))
        .execute();
      from += size;
    }
    return null;
  }
  const staged = JSON.stringify({ at, rows: rows.map((r) => [r.type, r.streamer_id, r.user_id, r.data]) });
  return sql`select set_config(${STAGED_SETTING}, ${staged}, true)`.compile(trx);
}

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
