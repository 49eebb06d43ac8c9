import { allows, type Role, type Who } from '../shared/roles.ts';

/** Who may do what with community ratings (routes.ts; the page's team panel). Pure. */
export const COMMUNITY_ROLES = {
  summary: 'public',
  mine: 'signedIn',
  rate: 'signedIn',
} as const satisfies Record<string, Role>;

/**
 * A member of the team linked to the streamer rates it while its community ratings are not
 * locked (the route answers `Not a member of this team` and `Community ratings are locked`).
 */
export const mayRateCommunity = (who: Who, facts: { member: boolean; locked: boolean }): boolean =>
  allows(COMMUNITY_ROLES.rate, who) && facts.member && !facts.locked;
