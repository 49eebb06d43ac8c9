import { allows, type Role, type Who } from '../shared/roles.ts';

/** Who may use push notifications (DECISIONS.md "Fifth wave" → "Push notifications"). Pure. */
export const PUSH_ROLES = {
  key: 'public',
  /** A banned user's session reaches the writes, which answer `banned`. */
  write: 'signedInOrBanned',
  mine: 'signedIn',
} as const satisfies Record<string, Role>;

/** A signed-in user who is not banned subscribes, unsubscribes and asks for a test message. */
export const mayPush = (who: Who): boolean => allows('signedIn', who);
