import { sql } from 'kysely';
import { describe, isAuditAction } from '../audit/actions.ts';
import { DEFAULT_AUTHOR } from '../shared/rules.ts';
import type { Db } from '../db/schema.ts';
import { foldCase } from '../shared/rules.ts';
import { foldName } from '../lib/names.ts';
import { followsOf } from '../follows/queries.ts';
import { mailOf } from '../mail/queries.ts';
import { notificationsOf, setShown } from '../notifications/queries.ts';
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

/**
 * Whether the confirmation typed before deleting an account names this user's login
 * (DECISIONS.md "Your data": compared folded). Folded as every name is (lib/names.ts), so
 * letter case, spaces and look-alike letters do not matter; but the skeleton can make two
 * different logins fold alike (`modern` and `rnodern`), so a confirmation that is, letter
 * for letter up to case, another user's login is refused even when it folds like this one's:
 * one user's login never confirms another's deletion.
 */
export async function confirmsOwnLogin(
  db: Db,
  user: { id: number; login: string },
  typed: string,
): Promise<boolean> {
  if (foldName(typed) !== foldName(user.login)) return false;
  const key = foldCase(typed.trim());
  if (key === foldCase(user.login)) return true;
  const other = await db
    .selectFrom('users')
    .select('id')
    .where('login_key', '=', key)
    .where('id', '!=', user.id)
    .executeTakeFirst();
  return other === undefined;
}

/**
 * Deletes a user and everything tied to them (likes, votes, reports, memberships, community
 * ratings, notifications, follows, push subscriptions, e-mail settings, tokens and queued mail and
 * moderator record go with the user row by their foreign keys;
 * sessions here).
 * Their comments stay as guest comments by `Anonym`, or are deleted with `deleteComments`.
 * The audit log keeps what was done, not by or to whom.
 */
export async function deleteAccount(
  db: Db,
  user: { id: number; login: string; provider: string; display_name: string },
  deleteComments: boolean,
): Promise<void> {
  const userId = user.id;
  if (deleteComments) {
    await setShown(db, { authorId: userId }, false);
    await db.deleteFrom('comments').where('user_id', '=', userId).execute();
  } else {
    await db
      .updateTable('comments')
      .set({ user_id: null, author: DEFAULT_AUTHOR, is_admin: 0 })
      .where('user_id', '=', userId)
      .execute();
  }
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  await forgetInAuditLog(db, user);
  await db.deleteFrom('users').where('id', '=', userId).execute();
}

/**
 * The audit log keeps the action, not the person: entries lose the user as actor and as
 * target, their login in the parameters (an empty login reads "a deleted user") and, on
 * comment entries that copied their comment, the copy and the author's name. Summaries are
 * worded again from what remains.
 */
async function forgetInAuditLog(
  db: Db,
  user: { id: number; login: string; provider: string; display_name: string },
): Promise<void> {
  const entries = await db
    .selectFrom('audit_log')
    .select(['id', 'action', 'actor_user_id', 'target_id', 'params', 'details'])
    .where((eb) =>
      eb.or([
        eb('actor_user_id', '=', user.id),
        eb('target_id', '=', user.id),
        eb('params', 'like', sql<string>`${`%${escapeLike(JSON.stringify(user.login))}%`} escape '\\'`),
        eb('details', 'like', `%"user_id":${user.id},%`),
      ]),
    )
    .execute();
  for (const entry of entries) {
    const params = (entry.params === null ? null : JSON.parse(entry.params)) as Record<
      string,
      unknown
    > | null;
    const aboutUser = entry.action.startsWith('user.') && entry.target_id === user.id;
    const named = params !== null && params.login === user.login && params.provider === user.provider;
    const copied = entry.action.startsWith('comment.') && entry.details?.includes(`"user_id":${user.id},`);
    if (named) params.login = '';
    if (copied && params?.author === user.display_name) params.author = '';
    await db
      .updateTable('audit_log')
      .set({
        actor_user_id: entry.actor_user_id === user.id ? null : entry.actor_user_id,
        target_id: aboutUser ? null : entry.target_id,
        details: aboutUser || copied ? null : entry.details,
        ...(params !== null && isAuditAction(entry.action)
          ? { params: JSON.stringify(params), summary: describe(entry.action, params as never) }
          : {}),
      })
      .where('id', '=', entry.id)
      .execute();
  }
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
