import type { Db } from '../db/schema.ts';
import { fail } from '../errors.ts';
import { foldName } from '../lib/names.ts';

/** Names no guest may take in any spelling (DECISIONS.md "Third wave", "Names and limits"). */
const RESERVED = new Set(['admin', 'administrator', 'moderator'].map(foldName));
/** The default guest name stays allowed, even if a user goes by it. */
const DEFAULT_GUEST = foldName('Anonym');

/**
 * Refuses a guest's name that, folded, is reserved or is the login or display name of anyone
 * who has signed in (banned users included: a ban is not a way to free a name).
 */
export async function assertGuestName(db: Db, name: string): Promise<void> {
  const folded = guestNameToCheck(name);
  if (folded === null) return;
  const taken = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb.or([eb('login_fold', '=', folded), eb('display_fold', '=', folded)]))
    .limit(1)
    .executeTakeFirst();
  if (taken) throw fail('name_reserved');
}

/**
 * The checks of assertGuestName that need no database: throws for a reserved name; answers
 * the folded name still to be compared with the users' names, or null when there is none to
 * compare (the default guest name).
 */
export function guestNameToCheck(name: string): string | null {
  const folded = foldName(name);
  if (folded === '' || folded === DEFAULT_GUEST) return null;
  if (RESERVED.has(folded)) throw fail('name_reserved');
  return folded;
}
