import { createHash } from 'node:crypto';
import type { Provider } from '../shared/rules.ts';

/**
 * The demo data's users (cli/demo.ts) are also the development stand-in's sample users, with
 * the same provider ids, so signing in as one of them on the stand-in is that demo user with
 * its role (rater, moderator), never a duplicate.
 */
export const DEMO_USERS: readonly { login: string; display: string; provider: Provider }[] = [
  { login: 'rater_rita', display: 'RaterRita', provider: 'provider_a' },
  { login: 'kick_karel', display: 'KickKarel', provider: 'provider_b' },
  { login: 'mod_max', display: 'ModMax', provider: 'provider_a' },
];

/**
 * A stable numeric id for a login (Kick's user_id is a number): the stand-in's user id, the same
 * in its sign-in and in its live APIs (sync/dev-live.ts), so that a streamer who signs in with
 * its channel's login speaks for it there (issue 45, week 15). Both take logins in lower case.
 */
export const standInId = (login: string): number =>
  parseInt(createHash('sha256').update(login).digest('hex').slice(0, 8), 16);
