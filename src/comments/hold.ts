import { sql } from 'kysely';
import type { SqlRule } from '../db/sql-rules.ts';
import { type GuestHold, hasLink } from '../shared/rules.ts';

/**
 * Whether a new comment waits for staff (DECISIONS.md "Guests earn trust", "Moderators' tools"):
 * `true`, `false`, or `untrusted` when it depends on whether the guest's address already has a
 * published comment (the `first` hold), which `UNTRUSTED` asks. Signed-in users are never held,
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

/**
 * A guest address is trusted once a guest comment from it is published (approved, or never
 * held): an SQL condition over the post's address, asked with the comment's rules (rules.ts).
 * Only the post of an untrusted address (the `first` hold) asks it; it refuses nothing, it holds.
 */
export const UNTRUSTED: SqlRule<'guestTag', 'untrusted'> = {
  error: 'untrusted',
  refuses: (v) =>
    sql`not exists (select 1 from comments c where c.guest_tag = ${v.guestTag} and c.user_id is null and c.pending = 0)`,
};
