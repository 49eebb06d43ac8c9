import { personOf } from '../audit/actions.ts';
import { actorOf, audit } from '../audit/queries.ts';
import type { AppContext } from '../context.ts';
import { writeTransaction } from '../db/transaction.ts';
import { DomainError, fail } from '../errors.ts';
import { HOUR } from '../lib/clock.ts';
import { truthy } from '../lib/input.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { LIMITS } from '../shared/rules.ts';
import { mayGrantRoles, mayRestrict, staffRoleOf } from './policy.ts';
import { findUser, setAdmin, setBanned, setModerator, setTimeoutUntil } from './queries.ts';

/** What a moderator may send (DECISIONS.md "Moderators' tools"); any other key is 403 `Admin only`. */
const MODERATOR_KEYS = new Set(['banned', 'timeout_hours']);

export interface UserChange {
  banned?: unknown;
  is_mod?: unknown;
  is_admin?: unknown;
  timeout_hours?: unknown;
}

/** `timeout_hours`: an integer from 0 (lifts the time-out) to 720; anything else is refused. */
function timeoutHours(value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > LIMITS.timeoutHoursMax) {
    throw new DomainError('invalid_field', { message: 'Invalid timeout_hours' });
  }
  return n;
}

/**
 * Changes a user's standing (DECISIONS.md "users, moderators and bans", "Staff accounts",
 * "Moderators' tools"): banned, time-out, moderator, administrator, each audited, in one
 * transaction. A moderator only bans and times out users who are not staff; role grants and
 * any change to staff are the administrator's (403 `Admin only`, nothing changed). A banned
 * user cannot be made an administrator (and a ban clears the flag: users/queries.ts).
 */
export async function changeUser(
  ctx: AppContext,
  viewer: Viewer,
  given: number | null,
  change: UserChange,
): Promise<void> {
  const { banned: ban, is_mod, is_admin, timeout_hours } = change;
  // A moderator's request with any other key is the administrator's: 403 before anything else,
  // the id's 400 included (DECISIONS.md "Errors": the role before the input).
  if (!mayGrantRoles(viewer) && Object.keys(change).some((key) => !MODERATOR_KEYS.has(key))) {
    throw fail('admin_only');
  }
  if (given === null) throw fail('missing_id');
  const id = given;
  const nothing =
    ban === undefined && is_mod === undefined && is_admin === undefined && timeout_hours === undefined;
  const now = ctx.clock.now();
  const actor = actorOf(viewer, now);
  await writeTransaction(ctx.database, async (trx) => {
    const found = await findUser(trx, id);
    // DECISIONS.md "Errors": the role (a moderator on staff) first, then the input, then the row.
    if (found && !mayRestrict(viewer, staffRoleOf(found))) throw fail('admin_only');
    if (nothing) throw fail('nothing_to_update');
    const hours = timeout_hours === undefined ? undefined : timeoutHours(timeout_hours);
    if (!found) throw fail('user_not_found');
    const banned = ban === undefined ? found.banned : truthy(ban);
    if (is_admin !== undefined && truthy(is_admin) && banned) throw fail('banned_user_admin');
    const who = personOf(found);
    if (ban !== undefined) {
      await setBanned(trx, id, banned, now);
      await audit(trx, actor, {
        action: 'user.ban',
        target_id: id,
        params: { ...who, banned },
        details: { old: found.banned, new: banned },
      });
    }
    if (hours !== undefined) {
      const until = hours === 0 ? null : new Date(now.getTime() + hours * HOUR).toISOString();
      await setTimeoutUntil(trx, id, until);
      await audit(trx, actor, {
        action: 'user.timeout',
        target_id: id,
        params: { ...who, hours },
        details: { old: found.timeout_until, new: until },
      });
    }
    if (is_mod !== undefined) {
      const isMod = truthy(is_mod);
      await setModerator(trx, id, isMod);
      await audit(trx, actor, {
        action: 'user.moderator',
        target_id: id,
        params: { ...who, moderator: isMod },
        details: { old: found.is_mod, new: isMod },
      });
    }
    if (is_admin !== undefined) {
      const isAdmin = truthy(is_admin);
      await setAdmin(trx, id, isAdmin);
      await audit(trx, actor, {
        action: 'user.admin',
        target_id: id,
        params: { ...who, admin: isAdmin },
        details: { old: found.is_admin, new: isAdmin },
      });
    }
  });
}
