import { type Role, rolePolicy } from '../shared/roles.ts';

/** Who may read the audit log. Pure (the page imports it). */
export const AUDIT_ROLES = { read: 'admin' } as const satisfies Record<string, Role>;

export const mayReadAudit = rolePolicy(AUDIT_ROLES.read);
