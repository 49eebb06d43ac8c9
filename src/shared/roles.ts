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
  'public' | 'signedIn' | 'signedInOrBanned' | 'signedInOrAdmin' | 'admin' | 'adminOrModerator';

/**
 * Whoever is calling, as both sides know it: the service's viewer (plugins/viewer.ts) and
 * the page's session (`GET /api/oauth/me`) each fit.
 */
export interface Who {
  isAdmin: boolean;
  isMod: boolean;
  /** The signed-in user, null when signed out or banned. */
  user: { id: number } | null;
  /** The session names a user whose record is banned. */
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
  }
}

/** An administrator or a moderator. */
export const isStaff = (who: Who): boolean => allows('adminOrModerator', who);
