/** Who is calling: sessions, sign-in states, the server's secrets, rate-limit counters. */
import type { Generated } from 'kysely';

export interface SessionsTable {
  /** HMAC of the cookie value: a copy of the table does not yield usable cookies. */
  id: string;
  data: string;
  /** The signed-in user of the session, if any (kept beside the JSON for one-lookup loads). */
  user_id: number | null;
  created_at: string;
  seen_at: string;
  /** The address the session last recorded in `user_addresses` (sessions/addresses.ts), and when. */
  guest_tag: string | null;
  guest_tag_at: string | null;
}

export interface OAuthStatesTable {
  id: Generated<number>;
  state: string;
  provider: string;
  verifier: string;
  created_at: string;
}

/** Server-side secrets (session secret, administrator password hash): never exported. */
export interface SecretsTable {
  key: string;
  value: string;
}

export interface RateLimitsTable {
  /** Bucket and client address. */
  key: string;
  hits: number;
  /** End of the current one-minute window (ISO text). */
  reset_at: string;
}

/** A used solution of the guests' challenge (its signature), kept until the challenge expires. */
export interface ChallengeUsesTable {
  signature: string;
  expires_at: string;
}
