import type { Role } from '../shared/roles.ts';

/** Who may report a comment: anyone (a guest is counted by their address tag). Pure. */
export const REPORT_ROLES = { report: 'public' } as const satisfies Record<string, Role>;
