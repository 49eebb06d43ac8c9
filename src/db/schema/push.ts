/** Push subscriptions and their outbox (DECISIONS.md "Fifth wave" → "Push notifications"). */
import type { Generated } from 'kysely';

/** A device's push subscription: its endpoint and keys are the device's, never shown. */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  endpoint: string;
  /** The endpoint's origin: its push service (a 429 pauses it). */
  origin: string;
  /** The device's P-256 public key and auth secret, base64url as the browser gives them. */
  p256dh: string;
  auth: string;
  /** The kinds, each enclosed by spaces: ` live reply `. */
  kinds: string;
  created_at: string;
  /** When its push service last took a message. */
  last_ok_at: string | null;
}

/**
 * One message for one subscription: `pending` until due and claimed, `sending` while one
 * instance posts it, then `sent`, `failed` (given up or the subscription is gone), `unknown`
 * (its sender stopped mid-send: never sent again) or `skipped` (its notification was hidden).
 */
export interface PushOutboxTable {
  id: Generated<number>;
  notification_id: number | null;
  subscription_id: number;
  payload: string | null;
  state: Generated<PushOutboxState>;
  attempts: Generated<number>;
  not_before: string;
  claimed_by: string | null;
  claimed_at: string | null;
  finished_at: string | null;
  last_error: string | null;
  created_at: string;
}

export type PushOutboxState = 'pending' | 'sending' | 'sent' | 'failed' | 'unknown' | 'skipped';
