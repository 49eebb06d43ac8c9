import { allows, isStaff, type Role, type Who } from '../shared/roles.ts';

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
} as const satisfies Record<string, Role>;

/** SPEC.md's three views of the list. */
export type View = 'full' | 'team' | 'public';

/**
 * The view a caller gets: staff asking for all get the full list; someone else signed in who
 * is in a team gets the team view; everyone else (staff without `all` included) the public one.
 */
export function viewOf(who: Who, opts: { all: boolean; inTeam: boolean }): View {
  if (isStaff(who)) return opts.all ? 'full' : 'public';
  return who.user !== null && opts.inTeam ? 'team' : 'public';
}

/** Whether the team view depends on team membership (only for a signed-in non-staff caller). */
export const teamViewPossible = (who: Who): boolean => !isStaff(who) && who.user !== null;

/** Staff may ask for the full list (`all=1`) and see notes. */
export const mayListAll = (who: Who): boolean => isStaff(who);

export const mayAdd = (who: Who): boolean => allows(STREAMER_ROLES.add, who);
export const mayRate = (who: Who): boolean => allows(STREAMER_ROLES.rate, who);
export const mayDelete = (who: Who): boolean => allows(STREAMER_ROLES.delete, who);

/**
 * The administrator edits everything (name, channels, status, game, title, reward); a
 * moderator only the scores and notes, and gets the formula's reward.
 */
export const mayEditDetails = (who: Who): boolean => who.isAdmin;

/** Locking community ratings is the administrator's (a moderator gets `Admin only`). */
export const mayLock = (who: Who): boolean => who.isAdmin;
