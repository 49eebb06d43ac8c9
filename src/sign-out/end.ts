import { personOf } from '../audit/actions.ts';
import { actorOf, audit } from '../audit/queries.ts';
import type { AppContext } from '../context.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { deleteUserSessions } from '../sessions/store.ts';
import { findUser } from '../users/queries.ts';

/**
 * "Sign out everywhere" (DECISIONS.md "Staff accounts and sessions") for another user, by an
 * administrator (a stolen account, a former moderator): every session of theirs ends, with an
 * audit entry, in one transaction. Answers how many ended.
 */
export function endSessionsOf(ctx: AppContext, viewer: Viewer, userId: number): Promise<number> {
  return writeTransaction(ctx.database, async (trx) => {
    const user = await findUser(trx, userId);
    if (!user) throw fail('user_not_found');
    const ended = await deleteUserSessions(trx, userId);
    await audit(trx, actorOf(viewer, ctx.clock.now()), {
      action: 'user.sessions',
      target_id: userId,
      params: { ...personOf(user), count: ended },
      details: { count: ended },
    });
    return ended;
  });
}

/**
 * The signed-in user's own sessions end, this one included (no audit entry: their own act); as a
 * write, so that every instance's cache of sessions lets them go.
 */
export function endOwnSessions(ctx: AppContext, userId: number): Promise<number> {
  return writeTransaction(ctx.database, (trx) => deleteUserSessions(trx, userId));
}
