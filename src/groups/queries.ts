import type { Db } from '../db/schema.ts';
import { foldName } from '../lib/names.ts';
import type { AdminGroup } from './schemas.ts';

/** A team as the API and the audit log show it (its stored fold is the database's). */
export interface GroupRow {
  id: number;
  name: string;
  streamer_id: number | null;
  created_at: string;
}

const GROUP_COLUMNS = ['id', 'name', 'streamer_id', 'created_at'] as const;

/** What a name decides: its fold (unique; null for no letters), compared as every name is. */
const nameFold = (name: string) => foldName(name) || null;

export async function myGroups(db: Db, userId: number) {
  return db
    .selectFrom('rater_groups')
    .innerJoin('rater_group_members', 'rater_group_members.group_id', 'rater_groups.id')
    .select(['rater_groups.id', 'rater_groups.name', 'rater_groups.streamer_id', 'rater_group_members.role'])
    .where('rater_group_members.user_id', '=', userId)
    .execute()
    .then(byName);
}

/**
 * Groups ordered by name without regard to case, the same on both databases (their
 * collations differ, so the order is made here).
 */
function byName<T extends { id: number; name: string }>(rows: T[]): T[] {
  const key = (r: T) => r.name.toLowerCase();
  return rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id));
}

/** The administrator's list: groups by name with streamer name, members and rating count. */
export async function allGroups(db: Db): Promise<AdminGroup[]> {
  const groups = await db
    .selectFrom('rater_groups')
    .leftJoin('streamers', 'streamers.id', 'rater_groups.streamer_id')
    .select([
      'rater_groups.id',
      'rater_groups.name',
      'rater_groups.streamer_id',
      'rater_groups.created_at',
      'streamers.name as streamer_name',
    ])
    .execute()
    .then(byName);
  const members = await memberRows(db);
  // The ratings of each team's streamer of the moment (those given before it moved are the old streamer's).
  const counts = await db
    .selectFrom('community_ratings')
    .innerJoin('rater_groups', 'rater_groups.id', 'community_ratings.group_id')
    .whereRef('community_ratings.streamer_id', '=', 'rater_groups.streamer_id')
    .select(['community_ratings.group_id', (eb) => eb.fn.countAll<number | string>().as('count')])
    .groupBy('community_ratings.group_id')
    .execute();
  const countOf = new Map(counts.map((c) => [c.group_id, Number(c.count)]));

  return groups.map((g) => ({
    ...g,
    streamer_name: g.streamer_name ?? null,
    members: asMembers(members.filter((m) => m.group_id === g.id)),
    ratings_count: countOf.get(g.id) ?? 0,
  }));
}

export async function findGroup(db: Db, id: number): Promise<GroupRow | undefined> {
  return db.selectFrom('rater_groups').select(GROUP_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function insertGroup(db: Db, group: Omit<GroupRow, 'id'>): Promise<GroupRow> {
  return db
    .insertInto('rater_groups')
    .values({ ...group, name_fold: nameFold(group.name) })
    .returning(GROUP_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function updateGroup(
  db: Db,
  id: number,
  changes: { name?: string; streamer_id?: number | null },
): Promise<void> {
  const folded = changes.name === undefined ? {} : { name_fold: nameFold(changes.name) };
  await db
    .updateTable('rater_groups')
    .set({ ...changes, ...folded })
    .where('id', '=', id)
    .execute();
}

export async function deleteGroup(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('rater_groups').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Memberships with their users, in the order they were added (of one group, or of all). */
function memberRows(db: Db, groupId?: number) {
  let query = db
    .selectFrom('rater_group_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select([
      'm.group_id',
      'm.id as member_id',
      'm.role',
      'm.added_at',
      'u.id',
      'u.provider',
      'u.login',
      'u.display_name',
      'u.avatar',
    ]);
  if (groupId !== undefined) query = query.where('m.group_id', '=', groupId);
  return query.orderBy('m.added_at').orderBy('m.id').execute();
}

/** SPEC.md's member items: the owner first, then by added_at. */
function asMembers(rows: Awaited<ReturnType<typeof memberRows>>): AdminGroup['members'] {
  return rows
    .sort((a, b) => Number(b.role === 'owner') - Number(a.role === 'owner'))
    .map(({ member_id, role, id, provider, login, display_name, avatar }) => ({
      member_id,
      role,
      id,
      provider,
      login,
      display_name,
      avatar,
    }));
}

/** The members of one team, as the administrator's list shows them. */
export async function teamMembers(db: Db, groupId: number): Promise<AdminGroup['members']> {
  return asMembers(await memberRows(db, groupId));
}
