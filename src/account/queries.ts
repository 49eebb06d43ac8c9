import type { Db } from '../db/schema.ts';
import { followsOf } from '../follows/queries.ts';
import { mailOf } from '../mail/queries.ts';
import { notificationsOf } from '../notifications/queries.ts';
import { reviewsBy } from '../reviews/queries.ts';
import { subscriptionsOf } from '../push/queries.ts';

/**
 * Everything the service keeps that is tied to one user (DECISIONS.md "Your data"): the user
 * record, comments, likes, votes, reports, team memberships, community ratings, notifications,
 * the streamers followed, staff reviews and re-rating requests, push subscriptions (their push
 * service, never the endpoint or keys), the e-mail address and what is mailed. Sessions
 * appear only as when they began and were last used (their keys are secrets of the service).
 */
export async function accountData(db: Db, userId: number) {
  const user = await db
    .selectFrom('users')
    .leftJoin('moderators', 'moderators.user_id', 'users.id')
    .select([
      'users.id',
      'users.provider',
      'users.provider_id',
      'users.login',
      'users.display_name',
      'users.avatar',
      'users.last_seen',
      'users.created_at',
      'users.banned',
      'users.is_admin',
      'moderators.user_id as mod_id',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirstOrThrow();
  const { mod_id, banned, is_admin, ...profile } = user;
  return {
    user: { ...profile, banned: banned === 1, is_admin: is_admin === 1, is_mod: mod_id !== null },
    comments: await db
      .selectFrom('comments')
      .innerJoin('streamers', 'streamers.id', 'comments.streamer_id')
      .select([
        'comments.id',
        'comments.streamer_id',
        'streamers.name as streamer_name',
        'comments.reply_to',
        'comments.author',
        'comments.body',
        'comments.created_at',
        'comments.edited_at',
        'comments.hidden',
        'comments.guest_tag',
      ])
      .where('comments.user_id', '=', userId)
      .orderBy('comments.id')
      .execute()
      .then((rows) => rows.map((c) => ({ ...c, hidden: c.hidden === 1 }))),
    likes: await db
      .selectFrom('comment_likes')
      .select(['comment_id', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('comment_id')
      .execute(),
    votes: await db
      .selectFrom('votes')
      .innerJoin('streamers', 'streamers.id', 'votes.streamer_id')
      .select(['votes.streamer_id', 'streamers.name as streamer_name', 'votes.score', 'votes.updated_at'])
      .where('votes.user_id', '=', userId)
      .orderBy('votes.streamer_id')
      .execute(),
    reports: await db
      .selectFrom('reports')
      .select(['comment_id', 'reason', 'note', 'created_at', 'closed_at'])
      .where('reporter_user_id', '=', userId)
      .orderBy('id')
      .execute(),
    memberships: await db
      .selectFrom('rater_group_members')
      .innerJoin('rater_groups', 'rater_groups.id', 'rater_group_members.group_id')
      .select([
        'rater_groups.id as group_id',
        'rater_groups.name as group_name',
        'rater_group_members.role',
        'rater_group_members.added_at',
      ])
      .where('rater_group_members.user_id', '=', userId)
      .orderBy('rater_groups.id')
      .execute(),
    community_ratings: await db
      .selectFrom('community_ratings')
      .select(['group_id', 'streamer_id', 's', 'g', 'a', 'v', 'n', 'ns', 'o', 'updated_at'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute(),
    notifications: await notificationsOf(db, userId),
    follows: await followsOf(db, userId),
    // A staff member's own reviews (and a streamer's re-rating requests): nobody else's.
    ...(await reviewsBy(db, userId)),
    push_subscriptions: await subscriptionsOf(db, userId),
    mail: await mailOf(db, userId),
    sessions: await db
      .selectFrom('sessions')
      .select(['created_at', 'seen_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute(),
  };
}
