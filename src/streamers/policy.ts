import { isStaff, type Role, rolePolicy, type Who } from '../shared/roles.ts';

/**
 * Who may do what with streamers: the routes (streamers/routes.ts) decide by these rules and
 * the page shows its views, forms and fields by them. Pure: the page imports it.
 */

export const STREAMER_ROLES = {
  list: 'public',
  suggest: 'public',
  add: 'admin',
  rate: 'adminOrModerator',
  delete: 'admin',
  /**
   * The right of reply (issue 26) is open to the route: who speaks for the streamer is a rule
   * of the data (speaks-for.ts), which the operation checks, answering 401, 403 `banned` or 403
   * `not_your_channel` as DECISIONS.md orders them; staff remove a reply.
   */
  reply: 'public',
  /** A hand-kept schedule: who speaks for the streamer, or staff (schedules/policy.ts, checked by the operation). */
  schedule: 'public',
  removeReply: 'adminOrModerator',
} as const satisfies Record<string, Role>;

/** SPEC.md's three views of the list. */
export type View = 'full' | 'team' | 'public';

/** Whether the team view depends on team membership (only for a signed-in non-staff caller). */
export const teamViewPossible = (who: Who): boolean => !isStaff(who) && who.user !== null;

/** Staff may ask for the full list (`all=1`) and see notes. */
export const mayListAll = (who: Who): boolean => isStaff(who);

/**
 * The view a caller gets: staff asking for all get the full list; someone else signed in who
 * is in a team gets the team view; everyone else (staff without `all` included) the public one.
 */
export function viewOf(who: Who, opts: { all: boolean; inTeam: boolean }): View {
  if (opts.all && mayListAll(who)) return 'full';
  return opts.inTeam && teamViewPossible(who) ? 'team' : 'public';
}

export const mayAdd = rolePolicy(STREAMER_ROLES.add);
export const mayRate = rolePolicy(STREAMER_ROLES.rate);
export const mayDelete = rolePolicy(STREAMER_ROLES.delete);

/**
 * The administrator edits everything (name, channels, status, game, title, reward); a
 * moderator only the scores and notes, and gets the formula's reward.
 */
export const mayEditDetails = (who: Who): boolean => who.isAdmin;

/** Locking community ratings is the administrator's (a moderator gets `Admin only`). */
export const mayLock = (who: Who): boolean => who.isAdmin;

/** Staff may remove a streamer's reply; the streamer's own reply is the streamer's (issue 26). */
export const mayRemoveReply = rolePolicy(STREAMER_ROLES.removeReply);

/** Whether this caller may write the reply of a streamer, given the streamers it speaks for. */
export const mayReply = (who: Who, speaksFor: readonly number[], streamerId: number): boolean =>
  !isStaff(who) && who.user !== null && speaksFor.includes(streamerId);
