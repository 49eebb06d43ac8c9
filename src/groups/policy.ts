import { allows, type Role, rolePolicy, type Who } from '../shared/roles.ts';

/** Who may do what with teams (routes.ts guards; the page's administration). Pure. */
export const TEAM_ROLES = {
  /** `GET /api/rater_groups?my=1`: one's own teams. */
  mine: 'signedIn',
  /** Every other operation: the teams and their members. */
  manage: 'admin',
  /** /api/team_members: a team's members list it; its owner manages its raters (checked per team). */
  owner: 'signedIn',
} as const satisfies Record<string, Role>;

export const mayManageTeams = rolePolicy(TEAM_ROLES.manage);

/**
 * A team's owner adds and removes its raters (not its owner, not another team's members):
 * `role` is the caller's role in the team (`GET /api/rater_groups?my=1`).
 */
export const mayManageRaters = (who: Who, team: { role: 'owner' | 'rater' | null }): boolean =>
  allows(TEAM_ROLES.owner, who) && team.role === 'owner';
