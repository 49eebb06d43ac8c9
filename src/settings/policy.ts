import { type Role, rolePolicy } from '../shared/roles.ts';

/** Who may read and change the settings. Pure (the page imports it). */
export const SETTINGS_ROLES = { read: 'public', change: 'admin' } as const satisfies Record<string, Role>;

export const mayChangeSettings = rolePolicy(SETTINGS_ROLES.change);
