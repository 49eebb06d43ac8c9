import type { Db } from '../db/schema.ts';
import { DAY } from '../lib/clock.ts';
import { LIMITS } from '../shared/rules.ts';

/**
 * The addresses a user's sessions use (issue 45 item 5): a ban remembers those of the last 30
 * days (users/bans.ts), a time-out applies to them while it lasts (guests/rules.ts). Each is a
 * row of `user_addresses` by (user, guest tag), the keyed hash of the address, never the address.
 */

/** A session that still uses the address it recorded is written again after this long. */
export const ADDRESS_REFRESH_MS = DAY;

/**
 * Whether a request of a session with a user must record its address: it differs from the one
 * the session recorded last, or that one was recorded a day ago (so that "used in the last 30
 * days" stays true to a day). Every other request writes nothing.
 */
export const addressDue = (
  recorded: { tag: string | null; atMs: number },
  tag: string,
  nowMs: number,
): boolean => recorded.tag !== tag || !(nowMs - recorded.atMs < ADDRESS_REFRESH_MS);

/**
 * Records that the user used this address now, and keeps the user's newest `LIMITS.userAddresses`
 * (an address that changes every hour does not grow the table without bound). In the caller's
 * transaction. Nothing when the user is gone.
 */
export async function rememberAddress(db: Db, userId: number, guestTag: string, at: string): Promise<void> {
  // From the user's row: a session whose user was deleted meanwhile records nothing.
  await db
    .insertInto('user_addresses')
    .columns(['user_id', 'guest_tag', 'seen_at'])
    .expression((eb) =>
      eb
        .selectFrom('users')
        .select((s) => ['users.id as user_id', s.val(guestTag).as('guest_tag'), s.val(at).as('seen_at')])
        .where('users.id', '=', userId),
    )
    .onConflict((oc) => oc.columns(['user_id', 'guest_tag']).doUpdateSet({ seen_at: at }))
    .execute();
  await db
    .deleteFrom('user_addresses')
    .where('user_id', '=', userId)
    .where('guest_tag', 'not in', (eb) =>
      eb
        .selectFrom('user_addresses')
        .select('guest_tag')
        .where('user_id', '=', userId)
        .orderBy('seen_at', 'desc')
        .orderBy('guest_tag')
        .limit(LIMITS.userAddresses),
    )
    .execute();
}
