import type { Generated, Kysely, Selectable } from 'kysely';
import type { Provider, ReportReason } from '../shared/rules.ts';

/**
 * One interface per table. Column types are ones SQLite and PostgreSQL hold the same way:
 * integers, text, booleans as 0/1 integers and timestamps as ISO 8601 UTC text
 * (`2026-11-21T10:00:00.000Z`), which sort correctly as text.
 */

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
}

export interface ModeratorsTable {
  user_id: number;
}

export interface StreamersTable {
  id: Generated<number>;
  name: string;
  /** Lower-cased name: makes uniqueness and ordering ignore letter case on both databases. */
  name_key: string;
  platform: Provider;
  kick_name: string;
  /** The provider_a login ('' means the name lower-cased without white space). */
  provider_a: Generated<string>;
  status: StreamerStatus;
  game: string;
  title: string;
  evaluated: number;
  community_locked: number;
  added_by: AddedBy;
  submitter: string;
  created_at: string;
  /** Set by live sync (sync/): '' when unknown. */
  avatar: Generated<string>;
  /** Viewers while live, else null. */
  viewers: number | null;
  live_since: string | null;
  /** The last successful check. */
  synced_at: string | null;
  /** Successful checks in a row that did not show the streamer live. */
  sync_misses: Generated<number>;
  /** The suggester's guest tag (lib/guest-tag.ts); null for older rows. */
  guest_tag: string | null;
}

export interface RatingsTable {
  streamer_id: number;
  s: number;
  g: number;
  a: number;
  v: number;
  n: number;
  ns: number;
  o: number;
  reward: number;
  notes: string | null;
  updated_at: string;
}

export interface RaterGroupsTable {
  id: Generated<number>;
  name: string;
  streamer_id: number | null;
  created_at: string;
}

export interface RaterGroupMembersTable {
  id: Generated<number>;
  group_id: number;
  user_id: number;
  role: MemberRole;
  added_at: string;
}

export interface CommentsTable {
  id: Generated<number>;
  streamer_id: number;
  user_id: number | null;
  author: string;
  body: string;
  is_admin: number;
  created_at: string;
  /** 1 hidden: left out for everyone but administrators and moderators. */
  hidden: Generated<number>;
  hidden_by: 'author' | 'staff' | null;
  edited_at: string | null;
  /** The poster's guest tag (lib/guest-tag.ts): a keyed hash of the address, never the address. */
  guest_tag: string | null;
  /** The top-level comment this one answers (threads are one level deep). */
  reply_to: number | null;
}

export interface CommentLikesTable {
  comment_id: number;
  user_id: number;
  created_at: string;
}

/** The audience score: one vote per user and streamer, 1 to 10. */
export interface VotesTable {
  streamer_id: number;
  user_id: number;
  score: number;
  updated_at: string;
}

/** Every rating write (PUT in rating mode), oldest first by id. */
export interface RatingHistoryTable {
  id: Generated<number>;
  streamer_id: number;
  at: string;
  s: number;
  g: number;
  a: number;
  v: number;
  n: number;
  ns: number;
  o: number;
  reward: number;
}

export interface ReportsTable {
  id: Generated<number>;
  comment_id: number;
  /** `u:<user id>` or `g:<guest tag>`: one open report per comment and reporter (a unique index). */
  reporter: string;
  reporter_user_id: number | null;
  reason: ReportReason;
  note: string;
  created_at: string;
  /** Set when staff dismiss the reports or hide the comment. */
  closed_at: string | null;
}

export interface AddressBlocksTable {
  id: Generated<number>;
  /** The full guest tag of the blocked address. */
  guest_tag: string;
  created_at: string;
  expires_at: string;
  /** Who blocked: the staff member's display name, or `admin`. */
  created_by: string;
  created_by_user_id: number | null;
  comment_id: number | null;
}

export interface CommunityRatingsTable {
  id: Generated<number>;
  group_id: number;
  streamer_id: number;
  user_id: number;
  s: number;
  g: number;
  a: number;
  v: number;
  n: number;
  ns: number;
  o: number;
  updated_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

/** Server-side secrets (session secret, administrator password hash): never exported. */
export interface SecretsTable {
  key: string;
  value: string;
}

export interface OAuthStatesTable {
  id: Generated<number>;
  state: string;
  provider: string;
  verifier: string;
  created_at: string;
}

export interface SessionsTable {
  /** HMAC of the cookie value: a copy of the table does not yield usable cookies. */
  id: string;
  data: string;
  /** The signed-in user of the session, if any (kept beside the JSON for one-lookup loads). */
  user_id: number | null;
  created_at: string;
  seen_at: string;
}

export interface RateLimitsTable {
  /** Bucket and client address. */
  key: string;
  hits: number;
  /** End of the current one-minute window (ISO text). */
  reset_at: string;
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

export interface Database {
  users: UsersTable;
  moderators: ModeratorsTable;
  streamers: StreamersTable;
  ratings: RatingsTable;
  rater_groups: RaterGroupsTable;
  rater_group_members: RaterGroupMembersTable;
  comments: CommentsTable;
  community_ratings: CommunityRatingsTable;
  settings: SettingsTable;
  secrets: SecretsTable;
  oauth_states: OAuthStatesTable;
  sessions: SessionsTable;
  audit_log: AuditLogTable;
  rate_limits: RateLimitsTable;
  sync_state: SyncStateTable;
  sync_lease: SyncLeaseTable;
  reports: ReportsTable;
  address_blocks: AddressBlocksTable;
  comment_likes: CommentLikesTable;
  votes: VotesTable;
  rating_history: RatingHistoryTable;
}

export type Db = Kysely<Database>;

export type StreamerStatus = 'live' | 'offline';
export type AddedBy = 'admin' | 'viewer';
export type MemberRole = 'owner' | 'rater';

export type User = Selectable<UsersTable>;
export type Streamer = Selectable<StreamersTable>;
export type Rating = Selectable<RatingsTable>;
export type RaterGroup = Selectable<RaterGroupsTable>;
export type Member = Selectable<RaterGroupMembersTable>;
export type Comment = Selectable<CommentsTable>;

export { SCORE_KEYS, type ScoreKey, type Scores } from '../shared/rules.ts';
