import type { Insertable } from 'kysely';
import { compiledOnce } from '../db/compiled.ts';
import type { CommentsTable, Db } from '../db/schema.ts';
import type { CommentItem } from './schemas.ts';

export interface ListOptions {
  /** Administrators and moderators also get hidden comments. */
  withHidden: boolean;
  /** A page: the newest `limit` comments with an id below `before`. */
  page?: { limit: number; before: number | null };
}

/** A streamer's comments in ascending order (SPEC.md), or one page of them. */
export async function listComments(db: Db, streamerId: number, opts: ListOptions): Promise<CommentItem[]> {
  let q = db
    .selectFrom('comments')
    .leftJoin('users', 'users.id', 'comments.user_id')
    .select([
      'comments.id',
      'comments.author',
      'comments.body',
      'comments.is_admin',
      'comments.created_at',
      'comments.user_id',
      'comments.hidden',
      'comments.edited_at',
      'users.display_name as user_display',
      'users.avatar as user_avatar',
      'users.provider as user_provider',
    ])
    .where('comments.streamer_id', '=', streamerId);
  if (!opts.withHidden) q = q.where('comments.hidden', '=', 0);
  const { page } = opts;
  const rows = page
    ? (
        await (page.before === null ? q : q.where('comments.id', '<', page.before))
          .orderBy('comments.id', 'desc')
          .limit(page.limit)
          .execute()
      ).reverse()
    : await q.orderBy('comments.created_at').orderBy('comments.id').execute();

  const teams = await teamsOf(
    db,
    rows.map((r) => r.user_id),
  );
  // The rows become the items in place: the full list of a busy streamer is tens of
  // thousands of rows, and a copy of each doubled the memory peak of its rendering.
  const items = rows as unknown as CommentItem[];
  for (const [i, r] of rows.entries()) {
    const item = items[i] as CommentItem;
    item.is_admin = r.is_admin === 1;
    item.hidden = r.hidden === 1;
    item.user_display = r.user_display ?? null;
    item.user_avatar = r.user_avatar ?? null;
    item.user_provider = r.user_provider ?? null;
    item.team_ids = r.user_id === null ? [] : (teams.get(r.user_id) ?? []);
  }
  return items;
}

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

export type NewComment = Pick<
  Insertable<CommentsTable>,
  'streamer_id' | 'user_id' | 'author' | 'body' | 'is_admin' | 'created_at'
>;

const insertCommentQuery = compiledOnce((db) =>
  db
    .insertInto('comments')
    .values({ streamer_id: 0, user_id: null, author: '', body: '', is_admin: 0, created_at: '' })
    .returning('id'),
);

export async function insertComment(db: Db, c: NewComment): Promise<number> {
  const params = [c.streamer_id, c.user_id ?? null, c.author, c.body, c.is_admin ?? 0, c.created_at];
  const [row] = (await insertCommentQuery(db, params)).rows;
  if (!row) throw new Error('insert into comments returned no id');
  return row.id;
}

export async function deleteComment(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('comments').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function findComment(db: Db, id: number) {
  return db
    .selectFrom('comments')
    .select(['id', 'streamer_id', 'user_id', 'author', 'body', 'created_at', 'hidden', 'hidden_by'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function setHidden(db: Db, id: number, hidden: boolean, by: 'author' | 'staff'): Promise<void> {
  await db
    .updateTable('comments')
    .set({ hidden: hidden ? 1 : 0, hidden_by: hidden ? by : null })
    .where('id', '=', id)
    .execute();
}

export async function editBody(db: Db, id: number, body: string, at: string): Promise<void> {
  await db.updateTable('comments').set({ body, edited_at: at }).where('id', '=', id).execute();
}
