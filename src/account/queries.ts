import { sql } from 'kysely';
import { describe, isAuditAction } from '../audit/actions.ts';
import { DEFAULT_AUTHOR } from '../shared/rules.ts';
import type { Db } from '../db/schema.ts';

/**
 * Everything the service keeps that is tied to one user (DECISIONS.md "Your data"): the user
 * record, comments, likes, votes, reports, team memberships and community ratings. Sessions
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
    sessions: await db
      .selectFrom('sessions')
      .select(['created_at', 'seen_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute(),
  };
}

/**
 * Deletes a user and everything tied to them (likes, votes, reports, memberships, community
 * ratings and moderator record go with the user row by their foreign keys; sessions here).
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

const NOBODY = 'a deleted user';

/**
 * The audit log keeps the action, not the person: entries lose the user as actor and as
 * target, the names the service wrote into summaries (`login (provider)`, and on comment
 * entries the display name) and the details that copied their comments.
 */
async function forgetInAuditLog(
  db: Db,
  user: { id: number; login: string; provider: string; display_name: string },
): Promise<void> {
  await db
    .updateTable('audit_log')
    .set({ actor_user_id: null })
    .where('actor_user_id', '=', user.id)
    .execute();
  await db
    .updateTable('audit_log')
    .set({ target_id: null, details: null })
    .where('target_id', '=', user.id)
    .where('action', 'like', 'user.%')
    .execute();
  const who = `${user.login} (${user.provider})`;
  await db
    .updateTable('audit_log')
    .set({ summary: sql<string>`replace(summary, ${who}, ${NOBODY})` })
    .where('summary', 'like', sql<string>`${`%${escapeLike(who)}%`} escape '\\'`)
    .execute();
  // A comment entry copied the comment: its details and the author's name go.
  const commentEntries = await db
    .selectFrom('audit_log')
    .select(['id', 'summary'])
    .where('action', 'like', 'comment.%')
    .where('details', 'like', `%"user_id":${user.id},%`)
    .execute();
  for (const entry of commentEntries) {
    await db
      .updateTable('audit_log')
      .set({ details: null, summary: entry.summary.split(user.display_name).join(NOBODY) })
      .where('id', '=', entry.id)
      .execute();
  }
  await forgetInParameters(db, user, new Set(commentEntries.map((e) => e.id)));
}

/**
 * Entries carry their parameters as data (audit/actions.ts): the user's login (with its
 * provider) and, on their comments' entries, their name become NOBODY there too, and the
 * summary is worded again from what is left.
 */
async function forgetInParameters(
  db: Db,
  user: { login: string; provider: string; display_name: string },
  theirComments: Set<number>,
): Promise<void> {
  const inJson = (s: string) => `%${escapeLike(JSON.stringify(s).slice(1, -1))}%`;
  const entries = await db
    .selectFrom('audit_log')
    .select(['id', 'action', 'params'])
    .where('params', 'is not', null)
    .where((eb) =>
      eb.or([
        eb('params', 'like', sql<string>`${inJson(user.login)} escape '\\'`),
        eb('params', 'like', sql<string>`${inJson(user.display_name)} escape '\\'`),
      ]),
    )
    .execute();
  for (const entry of entries) {
    const params = JSON.parse(entry.params ?? '{}') as Record<string, unknown>;
    let changed = false;
    if (params.login === user.login && params.provider === user.provider) {
      params.login = NOBODY;
      changed = true;
    }
    if (theirComments.has(entry.id) && params.author === user.display_name) {
      params.author = NOBODY;
      changed = true;
    }
    if (!changed || !isAuditAction(entry.action)) continue;
    await db
      .updateTable('audit_log')
      .set({ params: JSON.stringify(params), summary: describe(entry.action, params as never).slice(0, 500) })
      .where('id', '=', entry.id)
      .execute();
  }
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
