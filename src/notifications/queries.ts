import { sql } from 'kysely';
import { compiledOnce } from '../db/compiled.ts';
import { inIds } from '../db/dialect.ts';
import { IN_PUBLIC_VIEW } from '../catalogue/public-view.ts';
import type { Db } from '../db/schema.ts';
import { COMMENT_KINDS, type NotificationKind, NOTIFICATION_LIMITS } from '../shared/notifications.ts';

/** A notification to write: its recipient, what caused it, and the signed-in user who acted. */
export interface NewNotification {
  user_id: number;
  kind: NotificationKind;
  streamer_id: number;
  comment_id: number | null;
  actor_user_id: number | null;
  created_at: string;
}

/**
 * Writes notifications, inside the caller's transaction. "Nobody is notified of their own
 * action" is left out here (and held by a CHECK); "never twice" is the partial unique indexes
 * (migration 016), which `on conflict do nothing` meets. Answers the notifications written.
 */
export async function insertNotifications(db: Db, rows: NewNotification[]): Promise<Created[]> {
  const own = (r: NewNotification) => r.actor_user_id !== null && r.actor_user_id === r.user_id;
  const kept = rows.filter((r) => !own(r));
  if (kept.length === 0) return [];
  return db
    .insertInto('notifications')
    .values(kept)
    .onConflict((oc) => oc.doNothing())
    .returning(['id', 'user_id'])
    .execute();
}

/** A notification written: its id and recipient. */
export interface Created {
  id: number;
  user_id: number;
}

/**
 * `live` for these new streams, to every follower of their streamers, written from the follows
 * in one statement inside the sync write's transaction. Only streamers of the Public view (a
 * follower could not open the page of another). "Once per stream and follower" is the unique
 * index on (stream_id, user_id) (migration 022), which `on conflict do nothing` meets. Answers
 * the notifications written.
 */
export async function insertLiveNotifications(db: Db, streamIds: number[], now: string): Promise<Created[]> {
  return db
    .insertInto('notifications')
    .columns(['user_id', 'kind', 'streamer_id', 'stream_id', 'comment_id', 'actor_user_id', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('streams')
        .innerJoin('follows', 'follows.streamer_id', 'streams.streamer_id')
        .innerJoin('streamers', 'streamers.id', 'streams.streamer_id')
        .select((e) => [
          'follows.user_id',
          sql.lit('live').as('kind'),
          'streams.streamer_id',
          'streams.id as stream_id',
          sql<null>`null`.as('comment_id'),
          sql<null>`null`.as('actor_user_id'),
          e.val(now).as('created_at'),
        ])
        .where(inIds(db, 'streams.id', streamIds))
        .where(IN_PUBLIC_VIEW),
    )
    .onConflict((oc) => oc.doNothing())
    .returning(['id', 'user_id'])
    .execute();
}

/**
 * Keeps `shown` (migration 018) as DECISIONS.md words it, inside the transaction that hides,
 * shows or deletes these comments: a `reply`, `mention` or `like` about a hidden or deleted
 * comment is left out of the list and the count; `hidden` and `rated` always show. Answers
 * the users with unread notifications among those changed, whose counts moved.
 */
export async function setShown(
  db: Db,
  comments: number[] | { authorId: number },
  shown: boolean,
): Promise<number[]> {
  if (Array.isArray(comments) && comments.length === 0) return [];
  const flag = shown ? 1 : 0;
  const rows = await db
    .updateTable('notifications')
    .set({ shown: flag })
    .where(
      'comment_id',
      'in',
      Array.isArray(comments)
        ? comments
        : db.selectFrom('comments').select('id').where('user_id', '=', comments.authorId),
    )
    .where('kind', 'in', COMMENT_KINDS)
    .where('shown', '<>', flag)
    .returning(['user_id', 'read'])
    .execute();
  return [...new Set(rows.filter((r) => r.read === 0).map((r) => r.user_id))];
}

/**
 * `shown` made again from the comments as they are (an import, whose file may be older than
 * migration 018): the same rule as `setShown`, over every notification.
 */
export async function deriveShown(db: Db): Promise<void> {
  await db
    .updateTable('notifications')
    .set((eb) => ({
      shown: eb
        .case()
        .when(
          eb.and([
            eb('kind', 'in', COMMENT_KINDS),
            eb.or([
              eb('comment_id', 'is', null),
              eb('comment_id', 'in', eb.selectFrom('comments').select('id').where('hidden', '=', 1)),
            ]),
          ]),
        )
        .then(0)
        .else(1)
        .end(),
    }))
    .execute();
}

const unreadQuery = compiledOnce((db) =>
  db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', 0)
    .where('read', '=', 0)
    .where('shown', '=', 1),
);

/** The user's unread notifications, as the list counts them: one range of `notifications_unread`. */
export async function unreadCount(db: Db, userId: number): Promise<number> {
  const [row] = (await unreadQuery(db, [userId, 0, 1])).rows;
  return Number(row?.n ?? 0);
}

/** Past every id: the first page's `before` (compared as a bigint, beyond any integer key). */
const FIRST_PAGE = Number.MAX_SAFE_INTEGER;

const listQuery = compiledOnce((db) =>
  db
    .selectFrom('notifications')
    .leftJoin('comments', 'comments.id', 'notifications.comment_id')
    .innerJoin('streamers', 'streamers.id', 'notifications.streamer_id')
    .leftJoin('users as author', 'author.id', 'comments.user_id')
    .leftJoin('users as actor', 'actor.id', 'notifications.actor_user_id')
    .select([
      'notifications.id',
      'notifications.kind',
      'notifications.created_at as at',
      'notifications.read',
      'notifications.streamer_id',
      'streamers.name as streamer_name',
      'notifications.comment_id',
      'comments.author as comment_author',
      'author.display_name as author_name',
      'actor.display_name as actor_name',
    ])
    .where('notifications.user_id', '=', 0)
    .where('notifications.shown', '=', 1)
    .where('notifications.id', '<', sql<number>`cast(${0} as bigint)`)
    .orderBy('notifications.id', 'desc')
    .limit(0),
);

/** One page of the user's notifications, newest first; `before` pages by id. */
export async function listNotifications(
  db: Db,
  userId: number,
  page: { limit: number; before: number | null },
) {
  const { rows } = await listQuery(db, [userId, 1, page.before ?? FIRST_PAGE, page.limit]);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    at: r.at,
    read: r.read === 1,
    streamer_id: r.streamer_id,
    streamer_name: r.streamer_name,
    comment_id: r.kind === 'rated' ? null : r.comment_id,
    actor: actorOf(r),
  }));
}

/** Who caused it: the liker, the author of a reply or mention; nobody for staff and ratings. */
function actorOf(r: {
  kind: NotificationKind;
  comment_author: string | null;
  author_name: string | null;
  actor_name: string | null;
}): string | null {
  if (r.kind === 'like') return r.actor_name ?? null;
  if (r.kind === 'reply' || r.kind === 'mention') return r.author_name ?? r.comment_author ?? null;
  return null;
}

/** Marks the user's notifications read: these ids (others' are ignored), or all. */
export async function markRead(db: Db, userId: number, which: { ids: number[] } | 'all'): Promise<boolean> {
  let q = db
    .updateTable('notifications')
    .set({ read: 1 })
    .where('user_id', '=', userId)
    .where('read', '=', 0);
  if (which !== 'all') q = q.where('id', 'in', which.ids.slice(0, NOTIFICATION_LIMITS.readIds));
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The recipients who get a `mention` from this body: the first few mentioned, never its author. */
export async function mentionRecipients(
  db: Db,
  logins: string[],
  authorId: number | null,
): Promise<number[]> {
  if (logins.length === 0) return [];
  const users = await db
    .selectFrom('users')
    .select(['id', 'login_key'])
    .where('login_key', 'in', logins)
    .orderBy('id')
    .execute();
  const order = new Map(logins.map((l, i) => [l, i]));
  return users
    .filter((u) => u.id !== authorId)
    .sort((a, b) => (order.get(a.login_key) ?? 0) - (order.get(b.login_key) ?? 0))
    .slice(0, NOTIFICATION_LIMITS.mentions)
    .map((u) => u.id);
}

/** The user's notifications, for the account export. */
export async function notificationsOf(db: Db, userId: number) {
  return db
    .selectFrom('notifications')
    .select(['id', 'kind', 'streamer_id', 'comment_id', 'created_at', 'read'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute()
    .then((rows) => rows.map((r) => ({ ...r, read: r.read === 1 })));
}
