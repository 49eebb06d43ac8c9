import { allows, type Role, type Who } from '../shared/roles.ts';

/** Who may vote (the audience score). Pure (the page imports it). */
export const VOTE_ROLES = {
  /** A banned user's session reaches the route, which answers `banned`. */
  vote: 'signedInOrBanned',
  mine: 'signedIn',
} as const satisfies Record<string, Role>;

/** A signed-in user who is not banned votes, for streamers in the Public view. */
export const mayVote = (who: Who): boolean => allows('signedIn', who);

/** ...and not for a streamer they speak for (issue 45, item 14): the page offers no scale there. */
export const mayVoteFor = (who: Who, speaksFor: readonly number[], streamerId: number): boolean =>
  mayVote(who) && !speaksFor.includes(streamerId);
