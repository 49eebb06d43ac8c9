import { type Role, rolePolicy } from '../shared/roles.ts';

/** Who may sign sessions out everywhere: one's own, or (the administrator) anyone's. Pure. */
export const SESSION_ROLES = { mine: 'signedIn', anyone: 'admin' } as const satisfies Record<string, Role>;

export const maySignOutEverywhere = rolePolicy(SESSION_ROLES.mine);
export const maySignOutAnyone = rolePolicy(SESSION_ROLES.anyone);
