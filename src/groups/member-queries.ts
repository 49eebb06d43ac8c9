import type { Db, Member } from '../db/schema.ts';
import { foldCase } from '../shared/rules.ts';
import type { Provider } from '../shared/rules.ts';

/** A user of this provider, not banned, whose login matches without regard to case. */
export async function findActiveUserByLogin(db: Db, provider: Provider, login: string) {
  return db
    .selectFrom('users')
    .select(['id', 'provider', 'login', 'display_name'])
    .where('provider', '=', provider)
    .where('login_key', '=', foldCase(login))
    .where((eb) => eb.or([eb('banned', 'is', null), eb('banned', '=', 0)]))
    .orderBy('id')
    .executeTakeFirst();
}

/**
 * Adds the user to the group or replaces their role. Making someone owner first demotes the
 * group's current owner to rater. Run inside a transaction.
 */
export async function upsertMember(
  db: Db,
  member: Pick<Member, 'group_id' | 'user_id' | 'role' | 'added_at'>,
): Promise<void> {
  if (member.role === 'owner') {
    await db
      .updateTable('rater_group_members')
      .set({ role: 'rater' })
      .where('group_id', '=', member.group_id)
      .where('role', '=', 'owner')
      .where('user_id', '!=', member.user_id)
      .execute();
  }
  await db
    .insertInto('rater_group_members')
    .values(member)
    .onConflict((oc) => oc.columns(['group_id', 'user_id']).doUpdateSet({ role: member.role }))
    .execute();
}

/**
 * Removes a membership and, with it, the rater's community rating for that team (issue 30:
 * a removed rater no longer counts in the team's averages). `db` is the caller's transaction,
 * so both go or neither does. A deleted account's ratings go by their foreign key.
 */
export async function deleteMember(
  db: Db,
  member: { id: number; group_id: number; user_id: number },
): Promise<boolean> {
  const result = await db.deleteFrom('rater_group_members').where('id', '=', member.id).executeTakeFirst();
  await db
    .deleteFrom('community_ratings')
    .where('group_id', '=', member.group_id)
    .where('user_id', '=', member.user_id)
    .execute();
  return Number(result.numDeletedRows) > 0;
}

export async function findMember(db: Db, memberId: number) {
  return db
    .selectFrom('rater_group_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .innerJoin('rater_groups as g', 'g.id', 'm.group_id')
    .select([
      'm.id',
      'm.group_id',
      'm.user_id',
      'm.role',
      'u.login',
      'u.display_name',
      'u.provider',
      'g.name as group_name',
    ])
    .where('m.id', '=', memberId)
    .executeTakeFirst();
}

/** The user's role in the group, or null when not a member. */
export async function roleIn(db: Db, groupId: number, userId: number) {
  const row = await db
    .selectFrom('rater_group_members')
    .select('role')
    .where('group_id', '=', groupId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.role ?? null;
}
