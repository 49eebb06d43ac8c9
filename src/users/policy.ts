import { allows, type Role, type Who } from '../shared/roles.ts';

/** Who may see users and change their bans and moderator flags. Pure (the page imports it). */
export const USER_ROLES = { list: 'admin', change: 'admin' } as const satisfies Record<string, Role>;

export const mayManageUsers = (who: Who): boolean => allows(USER_ROLES.change, who);
