/** Discord webhooks and their outbox. */
import type { Generated } from 'kysely';
import type { DiscordEvent } from '../../shared/rules.ts';

/** A Discord webhook (DECISIONS.md "Reaching out"): its URL is a secret. */
export interface DiscordWebhooksTable {
  id: Generated<number>;
  url: string;
  /** Comma-separated subset of rated, suggested, live, reported. */
  events: string;
  /** Why sending to it stopped (Discord answered 404 or 401), or null while it works. */
  disabled_reason: string | null;
  created_at: string;
}

/**
 * One event for one webhook. `pending` until due and claimed; `sending` while one instance
 * posts it; then `sent`, `failed` (given up) or `unknown` (the answer never came, so it may
 * have arrived: never sent again).
 */
export interface DiscordOutboxTable {
  id: Generated<number>;
  webhook_id: number;
  event: DiscordEventKind | 'test';
  payload: string;
  state: Generated<OutboxState>;
  attempts: Generated<number>;
  not_before: string;
  claimed_by: string | null;
  claimed_at: string | null;
  finished_at: string | null;
  last_error: string | null;
  created_at: string;
}

export type DiscordEventKind = DiscordEvent;
export type OutboxState = 'pending' | 'sending' | 'sent' | 'failed' | 'unknown';
