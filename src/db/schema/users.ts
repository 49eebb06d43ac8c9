/** Users and moderators. */
import type { Generated, Selectable } from 'kysely';
import type { Provider } from '../../shared/rules.ts';

export interface UsersTable {
  id: Generated<number>;
  provider: Provider;
  provider_id: string;
  login: string;
  display_name: string;
  /** foldCase(login) and foldCase(display_name): case-insensitive matching on both databases. */
  login_key: string;
  display_key: string;
  avatar: string;
  last_seen: string;
  /** 1 banned, 0 or null not banned. */
  banned: number | null;
  created_at: string;
  /** foldName(login) and foldName(display_name): a guest may not take these names. */
  login_fold: Generated<string>;
  display_fold: Generated<string>;
  /** 1: a personal administrator account (never while banned: a CHECK). */
  is_admin: Generated<number>;
  /** A moderator's time-out: no writes until then (issue 29). */
  timeout_until: string | null;
  /** 1: maybe a banned user's return (signed in first from a banned address): comments held. */
  held: Generated<number>;
}

/**
 * The guest tags a user signed in from or a session of theirs used (sessions/addresses.ts), at
 * most `LIMITS.userAddresses` per user: a ban remembers those of the last 30 days, for the
 * accounts first signed in from them (users/sign-in.ts).
 */
export interface UserAddressesTable {
  user_id: number;
  guest_tag: string;
  seen_at: string;
}

/** A ban kept by the person at the provider: it outlives the account (issue 30, item 1). */
export interface BanTombstonesTable {
  id: Generated<number>;
  provider: string;
  provider_id: string;
  created_at: string;
}

/** An address a banned user came from: a new account from it is held, until `expires_at`. */
export interface BanAddressesTable {
  id: Generated<number>;
  tombstone_id: number;
  guest_tag: string;
  expires_at: string;
}

export interface ModeratorsTable {
  user_id: number;
}

export type User = Selectable<UsersTable>;
