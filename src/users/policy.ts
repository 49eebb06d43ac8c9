import { allows, type Role, rolePolicy, type Who } from '../shared/roles.ts';

/**
 * Who may see users and change them: staff (DECISIONS.md "Moderators' tools"); a moderator bans
 * and times out users who are not staff, role grants stay the administrator's. Pure (the page
 * imports it).
 */
export const USER_ROLES = { list: 'adminOrModerator', change: 'adminOrModerator' } as const satisfies Record<
  string,
  Role
>;

export const mayManageUsers = rolePolicy(USER_ROLES.change);

/** Role grants (moderator, administrator) are the administrator's. */
export const mayGrantRoles = (who: Who): boolean => allows('admin', who);

/** Whether `who` may ban or time out `target`: an administrator anyone, a moderator non-staff. */
export const mayRestrict = (who: Who, target: { is_mod: boolean; is_admin: boolean }): boolean =>
  allows('admin', who) || (allows('adminOrModerator', who) && !target.is_mod && !target.is_admin);
