import type { FastifyInstance } from 'fastify';
import { actorOf, audit } from '../audit/queries.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import { truthy } from '../lib/input.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { findUser, setAdmin, setBanned, setModerator } from './queries.ts';

type Ops = Pick<FastifyInstance, 'database' | 'clock'>;

export interface UserChange {
  banned?: unknown;
  is_mod?: unknown;
  is_admin?: unknown;
}

/**
 * Changes a user's standing (DECISIONS.md "users, moderators and bans", "Staff accounts"):
 * banned, moderator, administrator, each audited, in one transaction. A banned user cannot be
 * made an administrator (and a ban clears the flag: users/queries.ts `setBanned`).
 */
export async function changeUser(app: Ops, viewer: Viewer, id: number, change: UserChange): Promise<void> {
  if (change.banned === undefined && change.is_mod === undefined && change.is_admin === undefined) {
    throw fail('nothing_to_update');
  }
  const actor = actorOf(viewer, app.clock.now());
  await writeTransaction(app.database, async (trx) => {
    const found = await findUser(trx, id);
    if (!found) throw fail('user_not_found');
    const banned = change.banned === undefined ? found.banned : truthy(change.banned);
    if (change.is_admin !== undefined && truthy(change.is_admin) && banned) throw fail('banned_user_admin');
    const who = { login: found.login, provider: found.provider };
    if (change.banned !== undefined) {
      await setBanned(trx, id, banned);
      await audit(trx, actor, {
        action: 'user.ban',
        target_id: id,
        params: { ...who, banned },
        details: { old: found.banned, new: banned },
      });
    }
    if (change.is_mod !== undefined) {
      const isMod = truthy(change.is_mod);
      await setModerator(trx, id, isMod);
      await audit(trx, actor, {
        action: 'user.moderator',
        target_id: id,
        params: { ...who, moderator: isMod },
        details: { old: found.is_mod, new: isMod },
      });
    }
    if (change.is_admin !== undefined) {
      const isAdmin = truthy(change.is_admin);
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
