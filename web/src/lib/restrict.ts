import type { Who } from '../../../src/shared/roles.ts';
import { mayRestrict } from '../../../src/users/policy.ts';

/**
 * Whether the page offers `who` a time-out of `target` (the users list, the moderation queue):
 * whom the service lets them restrict (`mayRestrict`), while no ban lasts. The service takes a
 * banned user's time-out, which changes nothing until the ban is lifted: the page offers none.
 */
export const offersTimeOut = (
  who: Who,
  target: { is_mod: boolean; is_admin: boolean; banned: boolean },
): boolean => mayRestrict(who, target) && !target.banned;
