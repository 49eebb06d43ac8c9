import { allows, type Role, type Who } from '../shared/roles.ts';

/** Who may do what with e-mail (DECISIONS.md "Fifth wave" → "E-mail"). Pure (the page imports it). */
export const MAIL_ROLES = {
  /** A banned user's session reaches the writes, which answer `banned`. */
  change: 'signedInOrBanned',
  read: 'signedIn',
  /** The links from the messages: the token is the right, no session is read. */
  link: 'public',
} as const satisfies Record<string, Role>;

/** A signed-in user who is not banned sets their address and what they get. */
export const mayChangeMail = (who: Who): boolean => allows('signedIn', who);
