import { type Role, rolePolicy } from '../shared/roles.ts';

/** Who may see the live sync's state. Pure (the page imports it). */
export const SYNC_ROLES = { read: 'admin' } as const satisfies Record<string, Role>;

export const mayReadSync = rolePolicy(SYNC_ROLES.read);
