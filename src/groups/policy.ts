import { allows, type Role, type Who } from '../shared/roles.ts';

/** Who may do what with teams (routes.ts guards; the page's administration). Pure. */
export const TEAM_ROLES = {
  /** `GET /api/rater_groups?my=1`: one's own teams. */
  mine: 'signedIn',
  /** Every other operation: the teams and their members. */
  manage: 'admin',
} as const satisfies Record<string, Role>;

export const mayManageTeams = (who: Who): boolean => allows(TEAM_ROLES.manage, who);
