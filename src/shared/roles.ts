/**
 * Who may call what, as roles (each route states one in its guard, plugins/guards.ts) and the
 * check of a role against whoever is calling. The page imports this module for its buttons:
 * it must stay free of Node.js and server imports.
 */

/**
 * Who may call a route. `signedInOrBanned` lets a banned user's session through to the
 * handler, which answers 403 `banned` where DECISIONS.md says so (votes, likes) and serves
 * what a banned person still may do (their data).
 */
export type Role =
  | 'public'
  | 'signedIn'
  | 'signedInOrBanned'
  | 'signedInOrAdmin'
  | 'admin'
  | 'adminOrModerator'
  /**
   * Not a person: a scraper sending `Authorization: Bearer <METRICS_TOKEN>`; everyone else gets
   * 404, as for a path that does not exist (DECISIONS.md "Operating"). plugins/guards.ts checks
   * the header; no session carries it.
   */
  | 'metricsToken';

/**
 * Whoever is calling, as both sides know it: the service's viewer (plugins/viewer.ts) and
 * the page's session (`GET /api/oauth/me`) each fit.
 */
export interface Who {
  isAdmin: boolean;
  isMod: boolean;
  /** The signed-in user, null when signed out or banned. */
  user: { id: number } | null;
  /** The session's user is banned (the service's viewer knows; the page's session need not). */
  bannedUser?: boolean;
}

export function allows(role: Role, who: Who): boolean {
  switch (role) {
    case 'public':
      return true;
    case 'signedIn':
      return who.user !== null;
    case 'signedInOrBanned':
      return who.user !== null || who.bannedUser === true;
    case 'signedInOrAdmin':
      return who.user !== null || who.isAdmin;
    case 'admin':
      return who.isAdmin;
    case 'adminOrModerator':
      return who.isAdmin || who.isMod;
    case 'metricsToken':
      return false;
  }
}

/** An administrator or a moderator. */
export const isStaff = (who: Who): boolean => allows('adminOrModerator', who);

/**
 * A permission that is one role (`mayReadAudit`): the page asks it of its session, and a route
 * names it as its guard, which asks it of the viewer (plugins/guards.ts). One function for both.
 */
export interface RolePolicy {
  (who: Who): boolean;
  readonly role: Role;
}

export const rolePolicy = (role: Role): RolePolicy =>
  Object.assign((who: Who) => allows(role, who), { role });

export const isRolePolicy = (value: unknown): value is RolePolicy =>
  typeof value === 'function' && 'role' in value;

/** The role a guard asks for: itself, or its policy's. */
export const roleOfChoice = (choice: Role | Pick<RolePolicy, 'role'>): Role =>
  typeof choice === 'string' ? choice : choice.role;
