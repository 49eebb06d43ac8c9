import { type Role, rolePolicy } from '../shared/roles.ts';

/** Who may export or delete an account: its user, banned or not (their data stays theirs). Pure. */
export const ACCOUNT_ROLES = { own: 'signedInOrBanned' } as const satisfies Record<string, Role>;

export const mayManageOwnAccount = rolePolicy(ACCOUNT_ROLES.own);
