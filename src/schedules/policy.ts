import { isStaff, type Who } from '../shared/roles.ts';

/**
 * Who keeps a schedule by hand (DECISIONS.md "Schedules"): staff, or the user who speaks for
 * the streamer (catalogue/speaks-for.ts). Pure: the page shows the editor by it.
 */
export const mayKeepSchedule = (who: Who, speaksFor: readonly number[], streamerId: number): boolean =>
  !who.bannedUser && (isStaff(who) || (who.user !== null && speaksFor.includes(streamerId)));

/** Only provider_b streamers' schedules are kept by hand: provider_a's are read from Twitch. */
export const keptByHand = (platform: string): boolean => platform === 'provider_b';
