import type { Db } from '../db/schema.ts';
import { type GuestHold, hasLink } from '../shared/rules.ts';

/**
 * Whether a new comment waits for staff (DECISIONS.md "Guests earn trust", "Moderators' tools"):
 * `true`, `false`, or `untrusted` when it depends on whether the guest's address already has a
 * published comment (the `first` hold), which `isTrusted` asks. Signed-in users are never held,
 * except an account that may be a banned user's return, until staff approve one of its comments.
 */
export function holdOf(
  who: { guest: boolean; userHeld: boolean },
  hold: GuestHold,
  body: string,
): boolean | 'untrusted' {
  if (!who.guest) return who.userHeld;
  if (hold === 'none') return false;
  if (hold === 'all' || hasLink(body)) return true;
  return hold === 'first' ? 'untrusted' : false;
}

/** A guest address is trusted once a guest comment from it is published (approved, or never held). */
export async function isTrusted(db: Db, guestTag: string): Promise<boolean> {
  const row = await db
    .selectFrom('comments')
    .select('id')
    .where('guest_tag', '=', guestTag)
    .where('user_id', 'is', null)
    .where('pending', '=', 0)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
