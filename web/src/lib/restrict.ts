import type { Who } from '../../../src/shared/roles.ts';
import { mayRestrict, type StaffRole } from '../../../src/users/policy.ts';

/**
 * Whether the page offers `who` a time-out of a user (the users list, the moderation queue, a
 * comment's menu): whom the service lets them restrict (`mayRestrict`, by the user's staff role),
 * while no ban lasts. The service takes a banned user's time-out, which changes nothing until the
 * ban is lifted (DECISIONS.md): the page offers none. A rule of the page alone, so it lives here
 * (docs/architecture.md "Where each kind of rule lives").
 */
export const offersTimeOut = (who: Who, user: { role: StaffRole; banned: boolean }): boolean =>
  mayRestrict(who, user.role) && !user.banned;
