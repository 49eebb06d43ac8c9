import { markStreamers } from '../catalogue/speaks-for.ts';
import { repeatKey } from './rules.ts';
import { type ExpressionBuilder, type InferResult, type Insertable } from 'kysely';
import { compiledOnce } from '../db/compiled.ts';
import { isSqlite, type RowLock } from '../db/dialect.ts';
import type { CommentsTable, Database, Db } from '../db/schema.ts';
import { shortTag } from '../plugins/guest-tag.ts';
import type { CommentItem } from './schemas.ts';

/**
 * Comments with their authors: every column a comment item needs (schemas.ts), open reports
 * and the guest tag included (left out of the items for everyone but staff by `toItems`).
 */
export function selectComments(db: Db) {
  return db
    .selectFrom('comments')
    .leftJoin('users', 'users.id', 'comments.user_id')
    .leftJoin('moderators', 'moderators.user_id', 'comments.user_id')
    .select((eb) => [
      'comments.id',
      'comments.streamer_id',
      'comments.author',
      'comments.body',
      'comments.is_admin',
      'comments.created_at',
      'comments.user_id',
      'comments.hidden',
      'comments.edited_at',
      'comments.guest_tag',
      'comments.reply_to',
      'comments.pending',
      'comments.pinned',
      'users.display_name as user_display',
      'users.avatar as user_avatar',
      'users.provider as user_provider',
      'users.is_admin as user_is_admin',
      'moderators.user_id as user_mod',
      openReports(eb).as('reports'),
      eb
        .selectFrom('comment_likes')
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .whereRef('comment_likes.comment_id', '=', 'comments.id')
        .as('likes'),
    ]);
}

type Unmarked = Omit<CommentItem, 'is_streamer'>;
export type CommentRow = InferResult<ReturnType<typeof selectComments>>[number];

/**
 * A comment every public answer may show (the list, the feeds): not hidden, not held for staff,
 * not a reply in a hidden thread (DECISIONS.md "Comments", "Guests earn trust").
 */
export function isPublic(eb: ExpressionBuilder<Database, 'comments'>) {
  return eb.and([
    eb('comments.hidden', '=', 0),
    eb('comments.pending', '=', 0),
    eb.or([
      eb('comments.reply_to', 'is', null),
      eb.not(
        eb.exists(
          eb
            .selectFrom('comments as parent')
            .select('parent.id')
            .whereRef('parent.id', '=', 'comments.reply_to')
            .where('parent.hidden', '=', 1),
        ),
      ),
    ]),
  ]);
}

/**
 * Rows become comment items: booleans, the author's teams, staff role and whether they speak for
 * the streamer (issue 26), and for staff the open reports and the guest tag as staff see it
 * (the first 10 characters, on guest comments). The rows are used up.
 */
export async function toItems(db: Db, rows: CommentRow[], staff: boolean): Promise<CommentItem[]> {
  const [userIds, streamerIds] = [rows.map((r) => r.user_id), rows.map((r) => r.streamer_id)];
  const teams = await teamsOf(db, userIds);
  // Each row is let go as its item is made (taken from the end, the items reversed after): the
  // full list of a busy streamer is tens of thousands of rows, and holding every row and every
  // item at once doubled the memory peak of its rendering.
  const items: Unmarked[] = [];
  for (let row = rows.pop(); row !== undefined; row = rows.pop()) items.push(itemOf(row, teams, staff));
  return markStreamers(db, streamerIds, items.reverse());
}

function itemOf(row: CommentRow, teams: Map<number, number[]>, staff: boolean): Unmarked {
  return {
    id: row.id,
    author: row.author,
    body: row.body,
    is_admin: row.is_admin === 1,
    created_at: row.created_at,
    user_id: row.user_id,
    user_display: row.user_display ?? null,
    user_avatar: row.user_avatar ?? null,
    user_provider: row.user_provider ?? null,
    team_ids: row.user_id === null ? [] : (teams.get(row.user_id) ?? []),
    hidden: row.hidden === 1,
    edited_at: row.edited_at,
    reply_to: row.reply_to,
    likes: Number(row.likes ?? 0),
    pinned: row.pinned === 1,
    user_role: row.user_id === null && row.is_admin === 1 ? 'admin' : roleOf(row),
    // Staff see open reports and a guest comment's tag as staff see it (its first 10 characters).
    ...(staff
      ? {
          reports: Number(row.reports ?? 0),
          guest_tag: row.user_id === null && row.guest_tag ? shortTag(row.guest_tag) : null,
          pending: row.pending === 1,
        }
      : {}),
  };
}

/** The author's staff role now: an administrator account, a moderator, or neither. */
export function roleOf(r: {
  user_is_admin: number | null;
  user_mod: number | null;
}): CommentItem['user_role'] {
  if (r.user_is_admin === 1) return 'admin';
  return r.user_mod === null ? null : 'moderator';
}

type OnComments = ExpressionBuilder<Database & { comments: CommentsTable }, 'comments'>;

const openReportRows = (eb: OnComments) =>
  eb
    .selectFrom('reports')
    .whereRef('reports.comment_id', '=', 'comments.id')
    .where('reports.closed_at', 'is', null);

/** How many open reports a comment has, as a subquery of a select on `comments`. */
export const openReports = (eb: OnComments) =>
  openReportRows(eb).select((e) => e.fn.countAll<number | string>().as('n'));

/** The comment has an open report (a condition on `comments`). */
export const hasOpenReports = (eb: OnComments) => eb.exists(openReportRows(eb).select('reports.id'));

/** The teams of each author, ascending (SPEC.md's team_ids). */
async function teamsOf(db: Db, userIds: (number | null)[]): Promise<Map<number, number[]>> {
  const ids = [...new Set(userIds.filter((id): id is number => id !== null))];
  const teams = new Map<number, number[]>();
  if (ids.length === 0) return teams;
  const memberships = await db
    .selectFrom('rater_group_members')
    .select(['user_id', 'group_id'])
    .where('user_id', 'in', ids)
    .orderBy('group_id')
    .execute();
  for (const m of memberships) {
    const list = teams.get(m.user_id) ?? [];
    list.push(m.group_id);
    teams.set(m.user_id, list);
  }
  return teams;
}

export type NewComment = Omit<Insertable<CommentsTable>, 'id' | 'hidden' | 'hidden_by' | 'edited_at'>;

const insertCommentQuery = compiledOnce((db) =>
  db
    .insertInto('comments')
    .values({
      streamer_id: 0,
      user_id: null,
      author: '',
      body: '',
      is_admin: 0,
      created_at: '',
      guest_tag: null,
      reply_to: null,
      pending: 0,
      repeat_key: null,
    })
    .returning('id'),
);

const paramsOf = (c: NewComment) => [
  c.streamer_id,
  c.user_id ?? null,
  c.author,
  c.body,
  c.is_admin ?? 0,
  c.created_at,
  c.guest_tag ?? null,
  c.reply_to ?? null,
  c.pending ?? 0,
  c.repeat_key ?? null,
];

export async function insertComment(db: Db, c: NewComment): Promise<number> {
  const [row] = (await insertCommentQuery(db, paramsOf(c))).rows;
  if (!row) throw new Error('insert into comments returned no id');
  return row.id;
}

/** A comment stored held, let through after all (comments/post.ts `spokenFor`). */
export async function releaseHeld(db: Db, id: number): Promise<void> {
  await db.updateTable('comments').set({ pending: 0 }).where('id', '=', id).execute();
}

/**
 * Comments stored together (a group commit's posts, comments/post.ts): one insert on
 * PostgreSQL, whose ids are drawn in the order of its rows, so they are answered sorted; on
 * SQLite, in process, one prepared insert after the other.
 */
export async function insertComments(db: Db, comments: readonly NewComment[]): Promise<number[]> {
  if (comments.length <= 1 || isSqlite(db)) {
    const ids: number[] = [];
    for (const c of comments) ids.push(await insertComment(db, c));
    return ids;
  }
  const rows = await db
    .insertInto('comments')
    .values(comments.map((c) => ({ ...c, user_id: c.user_id ?? null, is_admin: c.is_admin ?? 0 })))
    .returning('id')
    .execute();
  if (rows.length !== comments.length) throw new Error('insert into comments returned too few ids');
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

export async function deleteComment(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('comments').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

const commentRow = (db: Db, id: number) =>
  db
    .selectFrom('comments')
    .select([
      'id',
      'streamer_id',
      'user_id',
      'author',
      'body',
      'created_at',
      'hidden',
      'hidden_by',
      'guest_tag',
      'reply_to',
      'pending',
      'pinned',
    ])
    .where('id', '=', id);

export async function findComment(db: Db, id: number) {
  return commentRow(db, id).executeTakeFirst();
}

/**
 * The comment a write is about to change or remove (hide, edit, delete, like, pin), read with
 * its row locked until the commit on PostgreSQL: a write that runs beside another on the same
 * comment sees it as the other left it (gone: 404; already hidden: nobody is told twice), never
 * a row that a concurrent delete takes away under its notification (a foreign key's 500).
 * Its streamer's row is locked first (`key share`: kept, not changed; a pin's `update`: pins
 * take turns), the order of the streamer's delete, whose cascade takes the comments after the
 * streamer: the two never wait on each other (a deadlock). SQLite writes one at a time.
 */
export async function commentToChange(db: Db, id: number, streamer: RowLock = 'key share') {
  if (isSqlite(db)) return commentRow(db, id).executeTakeFirst();
  const of = db.selectFrom('comments').select('streamer_id').where('id', '=', id);
  const row = db.selectFrom('streamers').select('id').where('id', '=', of);
  await (streamer === 'update' ? row.forUpdate() : row.forKeyShare()).execute();
  return commentRow(db, id).forUpdate().executeTakeFirst();
}

/** The name of the streamer a comment is under, for the audit log. */
export async function streamerNameOf(db: Db, streamerId: number): Promise<string | undefined> {
  const row = await db.selectFrom('streamers').select('name').where('id', '=', streamerId).executeTakeFirst();
  return row?.name;
}

export async function setHidden(db: Db, id: number, hidden: boolean, by: 'author' | 'staff'): Promise<void> {
  await db
    .updateTable('comments')
    // A hidden comment is pinned no more (the database refuses both at once, migration 025).
    .set({ hidden: hidden ? 1 : 0, hidden_by: hidden ? by : null, ...(hidden ? { pinned: 0 } : {}) })
    .where('id', '=', id)
    .execute();
}

export async function editBody(db: Db, id: number, body: string, at: string, held: boolean): Promise<void> {
  await db
    .updateTable('comments')
    .set({ body, edited_at: at, repeat_key: repeatKey(body), ...(held ? { pending: 1 } : {}) })
    .where('id', '=', id)
    .execute();
}
