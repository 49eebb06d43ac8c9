import { sql } from 'kysely';
import type { DbContext } from '../db/context.ts';
import type { Db } from '../db/schema.ts';

/**
 * What changed, as live updates tell it (DECISIONS.md "Fourth wave" → "Live updates"): ids and
 * numbers only, never text. `notification` names the user whose unread count changed; each
 * stream of that user asks for the count itself, so the count is never on the bus.
 */
export type LiveEvent =
  | { type: 'comment'; id: number; streamer_id: number }
  | { type: 'comment_removed'; id: number; streamer_id: number }
  | { type: 'rating'; streamer_id: number }
  | { type: 'live'; streamer_id: number; status: string; viewers: number }
  | { type: 'notification'; user_id: number };

/**
 * The NOTIFY channel of live events (PostgreSQL), beside the content version's, suffixed with
 * `:<schema>` (db/changes.ts listens on its own schema's): one database may hold several.
 */
export const EVENTS_CHANNEL = 'streamer_rating_events';
export const EVENTS_CHANNEL_OF_SCHEMA = sql`${EVENTS_CHANNEL + ':'} || current_schema()`;

type Listener = (event: LiveEvent) => void;

/**
 * One app's live events: what any instance published, delivered to this app's streams. On
 * PostgreSQL an event travels as a NOTIFY sent inside the transaction of the change, so every
 * instance (this one too) gets it exactly when the change commits (the content version's
 * LISTEN connection hears it, db/changes.ts). On SQLite the instances are the apps of this
 * process, which share the database's context: an event waits there for the commit (the next
 * move of the content version) and then reaches each of them.
 */
export class EventBus {
  readonly #listeners = new Set<Listener>();

  constructor(database: DbContext) {
    if (database.kind === 'sqlite') local(database).buses.add(this);
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  get size(): number {
    return this.#listeners.size;
  }

  deliver(event: LiveEvent): void {
    for (const listener of this.#listeners) listener(event);
  }

  /** A NOTIFY's payload, as published below. */
  deliverPayload(payload: string): void {
    let event: LiveEvent;
    try {
      event = JSON.parse(payload) as LiveEvent;
    } catch {
      return;
    }
    this.deliver(event);
  }

  detach(database: DbContext): void {
    if (database.kind === 'sqlite') local(database).buses.delete(this);
  }
}

interface Local {
  pending: LiveEvent[];
  buses: Set<EventBus>;
}
const locals = new WeakMap<DbContext['changes'], Local>();

function local(database: DbContext): Local {
  let l = locals.get(database.changes);
  if (!l) {
    const made: Local = { pending: [], buses: new Set() };
    database.changes.onBump(() => {
      const events = made.pending.splice(0);
      for (const bus of made.buses) for (const e of events) bus.deliver(e);
    });
    locals.set(database.changes, made);
    l = made;
  }
  return l;
}

/** Inside a write transaction: publish events, delivered everywhere when it commits. */
export async function publish(database: DbContext, trx: Db, events: LiveEvent[]): Promise<void> {
  if (events.length === 0) return;
  if (database.kind === 'sqlite') {
    local(database).pending.push(...events);
    return;
  }
  await sql`select pg_notify(${EVENTS_CHANNEL_OF_SCHEMA}, e) from unnest(${events.map((e) => JSON.stringify(e))}::text[]) as e`.execute(
    trx,
  );
}
