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

/** Who sees the users (`GET /api/users`, the page's Users tab). */
export const mayManageUsers = rolePolicy(USER_ROLES.list);

/** Role grants (moderator, administrator) are the administrator's. */
export const mayGrantRoles = (who: Who): boolean => allows('admin', who);

/** A user's place on staff, as a comment's `user_role` says it: administrator, moderator, or none (null). */
export type StaffRole = 'admin' | 'moderator' | null;

/** The staff role of a user's row or item (`GET /api/users`). */
export const staffRoleOf = (user: { is_mod: boolean; is_admin: boolean }): StaffRole =>
  user.is_admin ? 'admin' : user.is_mod ? 'moderator' : null;

/**
 * Whether `who` may ban or time out anyone at all (users who are not staff): every member of
 * staff. The guard of `PUT /api/users`, whose whole share for a moderator this is.
 */
export const mayRestrictUsers = rolePolicy(USER_ROLES.change);

/** Whether `who` may ban or time out a user of this staff role: an administrator anyone, staff non-staff. */
export const mayRestrict = (who: Who, role: StaffRole): boolean =>
  allows('admin', who) || (role === null && mayRestrictUsers(who));
