import type { Kysely } from 'kysely';
import type {
  ChallengeUsesTable,
  OAuthStatesTable,
  RateLimitsTable,
  SecretsTable,
  SessionsTable,
} from './schema/access.ts';
import type {
  AddressBlocksTable,
  CommentLikesTable,
  CommentsTable,
  ReportsTable,
} from './schema/comments.ts';
import type { DiscordOutboxTable, DiscordWebhooksTable } from './schema/discord.ts';
import type { MailDigestsTable, MailOutboxTable, MailSettingsTable, MailTokensTable } from './schema/mail.ts';
import type { NotificationsTable } from './schema/notifications.ts';
import type { ReratingRequestsTable, ReviewPublishesTable, StaffReviewsTable } from './schema/reviews.ts';
import type { PushOutboxTable, PushSubscriptionsTable } from './schema/push.ts';
import type { CommunityRatingsTable, RaterGroupMembersTable, RaterGroupsTable } from './schema/groups.ts';
import type {
  AuditLogTable,
  EventLogTable,
  HoldWordsTable,
  IdempotencyKeysTable,
  LogCursorsTable,
  SettingsTable,
  SyncLeaseTable,
  SyncStateTable,
} from './schema/service.ts';
import type {
  FollowsTable,
  RatingHistoryTable,
  RatingsTable,
  StreamerRepliesTable,
  StreamersTable,
  VotesTable,
  VoteTalliesTable,
} from './schema/streamers.ts';
import type { ScheduleSegmentsTable, SchedulesTable } from './schema/schedules.ts';
import type { StreamSamplesTable, StreamStatsTable, StreamsTable } from './schema/streams.ts';
import type {
  BanAddressesTable,
  BanTombstonesTable,
  ModeratorsTable,
  UserAddressesTable,
  UsersTable,
} from './schema/users.ts';

/**
 * The database: one interface per table, grouped by area in `schema/` (atproto's
 * `db/schema/*.ts`), combined here. Column types are ones SQLite and PostgreSQL hold the same
 * way: integers, text, booleans as 0/1 integers and timestamps as ISO 8601 UTC text
 * (`2026-11-21T10:00:00.000Z`), which sort correctly as text.
 */
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
  hold_words: HoldWordsTable;
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
  vote_tallies: VoteTalliesTable;
  follows: FollowsTable;
  schedules: SchedulesTable;
  schedule_segments: ScheduleSegmentsTable;
  rating_history: RatingHistoryTable;
  discord_webhooks: DiscordWebhooksTable;
  discord_outbox: DiscordOutboxTable;
  push_subscriptions: PushSubscriptionsTable;
  push_outbox: PushOutboxTable;
  notifications: NotificationsTable;
  streamer_replies: StreamerRepliesTable;
  streams: StreamsTable;
  stream_samples: StreamSamplesTable;
  stream_stats: StreamStatsTable;
  user_addresses: UserAddressesTable;
  ban_tombstones: BanTombstonesTable;
  ban_addresses: BanAddressesTable;
  challenge_uses: ChallengeUsesTable;
  idempotency_keys: IdempotencyKeysTable;
  event_log: EventLogTable;
  log_cursors: LogCursorsTable;
  staff_reviews: StaffReviewsTable;
  rerating_requests: ReratingRequestsTable;
  review_publishes: ReviewPublishesTable;
  mail_settings: MailSettingsTable;
  mail_tokens: MailTokensTable;
  mail_outbox: MailOutboxTable;
  mail_digests: MailDigestsTable;
}

export type Db = Kysely<Database>;

export type * from './schema/access.ts';
export type * from './schema/comments.ts';
export type * from './schema/discord.ts';
export type * from './schema/groups.ts';
export type * from './schema/mail.ts';
export type * from './schema/notifications.ts';
export type * from './schema/reviews.ts';
export type * from './schema/push.ts';
export type * from './schema/service.ts';
export type * from './schema/streamers.ts';
export type * from './schema/streams.ts';
export type * from './schema/users.ts';
export { SCORE_KEYS, type ScoreKey, type Scores } from '../shared/rules.ts';
