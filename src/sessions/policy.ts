import { allows, type Role, type Who } from '../shared/roles.ts';

/** Who may sign sessions out everywhere: one's own, or (the administrator) anyone's. Pure. */
export const SESSION_ROLES = { mine: 'signedIn', anyone: 'admin' } as const satisfies Record<string, Role>;

export const maySignOutEverywhere = (who: Who): boolean => allows(SESSION_ROLES.mine, who);
export const maySignOutAnyone = (who: Who): boolean => allows(SESSION_ROLES.anyone, who);
