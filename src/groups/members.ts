import { personOf } from '../audit/actions.ts';
import { audit } from '../audit/queries.ts';
import { lockRow } from '../db/dialect.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail, userNotSignedIn } from '../errors.ts';
import type { Keep } from '../idempotency/keep.ts';
import { parseId, text } from '../lib/input.ts';
import type { Who } from '../shared/roles.ts';
import { foldCase } from '../shared/rules.ts';
import type { MemberRole } from '../db/schema.ts';
import { deleteMember, findActiveUserByLogin, findMember, roleIn, upsertMember } from './member-queries.ts';
import { mayManageRaters } from './policy.ts';
import { findGroup } from './queries.ts';
import type { GroupBody } from './schemas.ts';
import type { TeamContext } from './teams.ts';

/** The member operations of /api/rater_groups (`?members=1`, `?member=N`). */

/** A team owner acting on their own team (/api/team_members): who they are, and their user id. */
export interface ByOwner {
  who: Who;
  userId: number;
}

/**
 * SPEC.md's add-member. `byOwner` is a team owner acting on their own team (DECISIONS.md
 * "Taking part"): the role is always rater, and an owner is never demoted that way.
 */
export async function addMember(
  { database, actor }: TeamContext,
  body: Pick<GroupBody, 'group_id' | 'login' | 'provider' | 'role'>,
  keep: Keep,
  byOwner?: ByOwner,
) {
  const groupId = parseId(body.group_id);
  const login = foldCase((text(body.login) ?? '').trim());
  if (groupId === null) throw fail('missing_group_or_login');
  const provider = body.provider === 'provider_b' ? 'provider_b' : 'provider_a';
  const role: MemberRole = !byOwner && body.role === 'owner' ? 'owner' : 'rater';
  return writeTransaction(database, async (trx) => {
    // Concurrent changes of one team's members take turns, so "at most one owner" holds.
    await lockRow(trx, 'rater_groups', groupId);
    if (byOwner && !mayManageRaters(byOwner.who, { role: await roleIn(trx, groupId, byOwner.userId) })) {
      throw fail('owner_only');
    }
    // DECISIONS.md "Errors": an owner's right to the team (403) before the missing login (400).
    if (login === '') throw fail('missing_group_or_login');
    const group = await findGroup(trx, groupId);
    if (!group) throw fail('group_not_found');
    const user = await findActiveUserByLogin(trx, provider, login);
    if (!user) throw userNotSignedIn(login, provider);
    if (byOwner) {
      const current = await roleIn(trx, groupId, user.id);
      if (current === 'owner') throw fail('owner_only');
      if (current === 'rater')
        return keep(trx, { ok: true as const, display_name: user.display_name, role: current });
    }
    await upsertMember(trx, { group_id: groupId, user_id: user.id, role, added_at: actor.at });
    await audit(trx, actor, {
      action: 'member.add',
      target_id: groupId,
      params: { ...personOf(user), team: group.name, role },
    });
    return keep(trx, { ok: true as const, display_name: user.display_name, role });
  });
}

/**
 * SPEC.md's delete-member. `byOwner`: a team owner removes a rater of their own team; an
 * owner, or a member of another team, is 403 `Owner only`.
 */
export async function removeMember(
  { database, actor }: TeamContext,
  memberParam: unknown,
  byOwner?: ByOwner,
) {
  const memberId = parseId(memberParam);
  if (memberId === null) throw fail('missing_member_id');
  await writeTransaction(database, async (trx) => {
    const member = await findMember(trx, memberId);
    if (!member) throw fail('member_not_found');
    if (
      byOwner &&
      (member.role === 'owner' ||
        !mayManageRaters(byOwner.who, { role: await roleIn(trx, member.group_id, byOwner.userId) }))
    ) {
      throw fail('owner_only');
    }
    if (!(await deleteMember(trx, member))) throw fail('member_not_found');
    await audit(trx, actor, {
      action: 'member.remove',
      target_id: member.group_id,
      params: { ...personOf(member), team: member.group_name },
    });
  });
}
