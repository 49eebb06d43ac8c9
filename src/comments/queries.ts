import type { Db } from '../db/schema.ts';

export interface CommentView {
  id: number;
  author: string;
  body: string;
  is_admin: boolean;
  created_at: string;
  user_id: number | null;
  user_display: string | null;
  user_avatar: string | null;
  user_provider: string | null;
  team_ids: number[];
}

export async function listComments(db: Db, streamerId: number): Promise<CommentView[]> {
  const rows = await db
    .selectFrom('comments')
    .leftJoin('users', 'users.id', 'comments.user_id')
    .select([
      'comments.id',
      'comments.author',
      'comments.body',
      'comments.is_admin',
      'comments.created_at',
      'comments.user_id',
      'users.display_name as user_display',
      'users.avatar as user_avatar',
      'users.provider as user_provider',
    ])
    .where('comments.streamer_id', '=', streamerId)
    .orderBy('comments.created_at')
    .orderBy('comments.id')
    .execute();

  const userIds = [...new Set(rows.map((r) => r.user_id).filter((id): id is number => id !== null))];
  const teams = new Map<number, number[]>();
  if (userIds.length > 0) {
    const memberships = await db
      .selectFrom('rater_group_members')
      .select(['user_id', 'group_id'])
      .where('user_id', 'in', userIds)
      .orderBy('group_id')
      .execute();
    for (const m of memberships) {
      const list = teams.get(m.user_id) ?? [];
      list.push(m.group_id);
      teams.set(m.user_id, list);
    }
  }

  return rows.map((r) => ({
    ...r,
    is_admin: r.is_admin === 1,
    user_display: r.user_display ?? null,
    user_avatar: r.user_avatar ?? null,
    user_provider: r.user_provider ?? null,
    team_ids: r.user_id === null ? [] : (teams.get(r.user_id) ?? []),
  }));
}

export interface NewComment {
  streamer_id: number;
  user_id: number | null;
  author: string;
  body: string;
  is_admin: number;
  created_at: string;
}

export async function insertComment(db: Db, comment: NewComment): Promise<number> {
  const row = await db.insertInto('comments').values(comment).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function deleteComment(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('comments').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function findComment(db: Db, id: number) {
  return db
    .selectFrom('comments')
    .select(['id', 'streamer_id', 'author', 'body', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}
