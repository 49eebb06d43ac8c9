import { allows, type Role, type Who } from '../shared/roles.ts';

/** Who may follow streamers (DECISIONS.md "Fifth wave" → "Following"). Pure (the page imports it). */
export const FOLLOW_ROLES = {
  /** A banned user's session reaches the route, which answers `banned`. */
  follow: 'signedInOrBanned',
  mine: 'signedIn',
} as const satisfies Record<string, Role>;

/** A signed-in user who is not banned follows streamers of the Public view. */
export const mayFollow = (who: Who): boolean => allows('signedIn', who);
