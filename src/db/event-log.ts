import { type CompiledQuery, sql } from 'kysely';
import { isSqlite } from './dialect.ts';
import type { Db } from './schema.ts';
import type { DiscordEvent } from '../shared/rules.ts';

/**
 * The event log's writing side (docs/architecture.md "Where an event goes"): every operation that
 * changes what others see publishes its events inside its own transaction, and they become rows
 * of `event_log` when it commits (transaction.ts, group-commit.ts), never when it fails. The
 * reading side, streams and deliverers following the rows from their own cursors, is
 * events/log.ts.
 *
 * The events of the live streams carry ids and numbers only, never text (DECISIONS.md "Live
 * updates"); `notification` names the user whose unread count changed (each of their streams
 * asks for the count), and the notifications created for them, which the push deliverer sends
 * (never on a stream). `discord` is a message for Discord's webhooks (discord/sender.ts).
 */
export type LiveEvent =
  | { type: 'comment'; id: number; streamer_id: number }
  | { type: 'comment_removed'; id: number; streamer_id: number }
  /**
   * `left`: the change took the streamer out of the Public view (its total went to 0, or it was
   * deleted). Kept in the log, never sent: the ranking's streams hear it although the streamer
   * is no longer in the view (events/ranking.ts).
   */
  | { type: 'rating'; streamer_id: number; left?: true }
  /** `viewers` as the streamer's item has it after the change: null when not live or not known. */
  | { type: 'live'; streamer_id: number; status: string; viewers: number | null }
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
 * The events published inside each open write (transaction.ts opens and closes them): kept
 * until the write is about to commit, then appended in one insert. A write that fails throws
 * its events away with its other changes.
 */
const scopes = new WeakMap<object, LogEvent[]>();

/** Opens a write's buffer of events (transaction.ts). */
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
 * Inside a write (transaction.ts `writeTransaction`): publish events. They reach the log
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
 * (connect.ts), and an INSERT of n rows is one text per n: a statement for each group size
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
 * goes in the round trip of the COMMIT (transaction.ts), so that the log's lock it takes is
 * held for that round trip only (migration 037).
 */
export const APPEND_STAGED = 'select append_staged_events()';

/** PostgreSQL's transaction-local setting that holds a write's events until its commit (migration 037). */
const STAGED_SETTING = 'streamer_rating.events';

/**
 * Hands a write's events to the log, inside the transaction that commits them, as the last thing
 * the write does. SQLite (one writer at a time) inserts them, and answers null. PostgreSQL
 * answers the statement that stages them, one parameter, for `APPEND_STAGED`: the commit's round
 * trip sends it first (transaction.ts), then `APPEND_STAGED`, which takes the log's lock (per
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
