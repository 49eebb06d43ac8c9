/** Streamers, the administrators' ratings and their history, the audience's votes. */
import type { Generated, Selectable } from 'kysely';
import type { Provider } from '../../shared/rules.ts';

export interface StreamersTable {
  id: Generated<number>;
  name: string;
  /** Lower-cased name: makes uniqueness and ordering ignore letter case on both databases. */
  name_key: string;
  /**
   * The name's fold (lib/names.ts `foldName`), unique: look-alike names are one name. Null when
   * the name folds to nothing, or for a streamer from before the rule whose name folds like an
   * older one's (migration 045).
   */
  name_fold: string | null;
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
  /** The suggester's guest tag (plugins/guest-tag.ts); null for older rows. */
  guest_tag: string | null;
  /** The channel's account id at the provider, as live sync learnt it (issue 26), or null. */
  account_id: string | null;
  /** `<platform>:<channel>` the account id was learnt for: it counts only while that is still the channel. */
  account_channel: string | null;
  /** The signed-in user who suggested it (issue 26, "The changes"), or null. */
  suggested_by: number | null;
}

/** A streamer's right of reply (issue 26): one per streamer. */
export interface StreamerRepliesTable {
  streamer_id: number;
  user_id: number;
  body: string;
  at: string;
  /** The `at` of the rating-history row the reply was written under. */
  rating_at: string;
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

/** The audience score: one vote per user and streamer, 1 to 10. */
export interface VotesTable {
  streamer_id: number;
  user_id: number;
  score: number;
  updated_at: string;
}

/**
 * A streamer's votes counted as they change (migration 035): kept by triggers on `votes`, read
 * by the list instead of a sum over every vote. `h1`..`h10`: how many votes of each score.
 */
export interface VoteTalliesTable {
  streamer_id: number;
  vote_count: number;
  score_sum: number;
  h1: number;
  h2: number;
  h3: number;
  h4: number;
  h5: number;
  h6: number;
  h7: number;
  h8: number;
  h9: number;
  h10: number;
}

/** DECISIONS.md "Fifth wave" → "Following": one row per user and streamer followed. */
export interface FollowsTable {
  user_id: number;
  streamer_id: number;
  created_at: string;
}

export type StreamerStatus = 'live' | 'offline';
export type AddedBy = 'admin' | 'viewer';

export type Streamer = Selectable<StreamersTable>;
export type Rating = Selectable<RatingsTable>;
