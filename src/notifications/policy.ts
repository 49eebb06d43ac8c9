import type { Role } from '../shared/roles.ts';

/** Who may read and mark notifications: a signed-in user, their own only. Pure. */
export const NOTIFICATION_ROLES = { own: 'signedIn' } as const satisfies Record<string, Role>;
