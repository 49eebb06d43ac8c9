/** The service's own records: settings, the audit log, live sync's state and the leases. */
import type { Generated } from 'kysely';
import type { Provider } from '../../shared/rules.ts';

export interface SettingsTable {
  key: string;
  value: string;
}

/** The administrator's words that hold a comment (DECISIONS.md "Words and repeats"), in their order. */
export interface HoldWordsTable {
  position: number;
  word: string;
  /** `word` folded (lib/names.ts `foldWords`). */
  fold: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: string;
  /** `admin`, `user` (a moderator through their account) or `cli` (the operator's tool). */
  actor: 'admin' | 'user' | 'cli';
  actor_user_id: number | null;
  action: string;
  target_id: number | null;
  /** The service's English words for the entry (audit/actions.ts). */
  summary: string;
  /** JSON: the action's parameters (audit/actions.ts); null for an old entry that had none. */
  params: string | null;
  /** JSON: old and new values where a change has them. */
  details: string | null;
}

/** Live sync, per provider: what `GET /api/sync` answers on every instance. */
export interface SyncStateTable {
  provider: Provider;
  last_ok: string | null;
  last_error: string | null;
  last_error_at: string | null;
  /** Streamers checked successfully in the last complete round. */
  checked: number;
  /** When the last round finished. */
  cycle_at: string | null;
}

/** One poller across instances: whoever holds the unexpired row polls. */
export interface SyncLeaseTable {
  name: string;
  holder: string;
  expires_at: string;
}

/** A request's idempotency key and, once it has one, its answer (idempotency/). */
export interface IdempotencyKeysTable {
  sender: string;
  key: string;
  request: string;
  status: number | null;
  headers: string | null;
  body: string | null;
  created_at: string;
}

/** One event a committed write published (db/event-log.ts): the log every reader follows. */
export interface EventLogTable {
  id: Generated<number>;
  type: 'comment' | 'comment_removed' | 'rating' | 'live' | 'notification' | 'discord';
  streamer_id: number | null;
  user_id: number | null;
  /** JSON: the event's own fields. */
  data: string;
  created_at: string;
}

/** How far a deliverer of the log (Discord, ...) has delivered: the last id it handled. */
export interface LogCursorsTable {
  name: string;
  last_id: number;
}
