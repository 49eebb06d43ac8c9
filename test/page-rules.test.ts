import { describe, expect, it } from 'vitest';
import type { Who } from '../src/shared/roles.ts';
import { itemInPublicView } from '../src/shared/public-view.ts';
import { timeOutRuns } from '../src/shared/time-out.ts';
import { mayRestrict, mayRestrictUsers, staffRoleOf } from '../src/users/policy.ts';
import { offersTimeOut } from '../web/src/lib/restrict.ts';

/**
 * The rules the page asks of what it holds, each written once with the service
 * (test/moderators-tools.test.ts and test/streamers-views.test.ts hold the service to them over
 * HTTP): who may restrict whom by the user's staff role, a running time-out, the Public view,
 * and the page's own offer of a time-out, built from them.
 */
const who = (isAdmin: boolean, isMod: boolean): Who => ({ isAdmin, isMod, user: { id: 1 } });
const admin = who(true, false);
const moderator = who(false, true);
const user = who(false, false);

describe('the rules the page shares with the service', () => {
  it("a user's staff role: administrator before moderator, else none", () => {
    expect(staffRoleOf({ is_admin: true, is_mod: true })).toBe('admin');
    expect(staffRoleOf({ is_admin: false, is_mod: true })).toBe('moderator');
    expect(staffRoleOf({ is_admin: false, is_mod: false })).toBeNull();
  });

  it('an administrator restricts anyone, a moderator users who are not staff, a user nobody', () => {
    for (const role of ['admin', 'moderator', null] as const) {
      expect(mayRestrict(admin, role), `admin, ${role}`).toBe(true);
      expect(mayRestrict(moderator, role), `moderator, ${role}`).toBe(role === null);
      expect(mayRestrict(user, role), `user, ${role}`).toBe(false);
    }
    expect([admin, moderator, user].map(mayRestrictUsers)).toEqual([true, true, false]);
  });

  it('the page offers a time-out to whom the caller may restrict, while no ban lasts', () => {
    expect(offersTimeOut(moderator, { role: null, banned: false })).toBe(true);
    expect(offersTimeOut(moderator, { role: null, banned: true })).toBe(false);
    expect(offersTimeOut(moderator, { role: 'moderator', banned: false })).toBe(false);
    expect(offersTimeOut(admin, { role: 'admin', banned: false })).toBe(true);
    expect(offersTimeOut(admin, { role: null, banned: true })).toBe(false);
  });

  it('a time-out runs until its instant, not at it; none runs without one', () => {
    const until = '2026-01-01T12:00:00.000Z';
    const at = Date.parse(until);
    expect(timeOutRuns(until, at - 1)).toBe(true);
    expect(timeOutRuns(until, at)).toBe(false);
    expect(timeOutRuns(null, 0)).toBe(false);
    expect(timeOutRuns(undefined, 0)).toBe(false);
  });

  it('the Public view: evaluated and rated, both', () => {
    const at = '2026-01-01T12:00:00.000Z';
    expect(itemInPublicView({ evaluated: true, rated_at: at })).toBe(true);
    expect(itemInPublicView({ evaluated: false, rated_at: at })).toBe(false);
    expect(itemInPublicView({ evaluated: true, rated_at: null })).toBe(false);
    expect(itemInPublicView({ evaluated: false, rated_at: null })).toBe(false);
  });
});
