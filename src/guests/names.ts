import { foldName } from '../lib/names.ts';
import { STAFF_AUTHOR } from '../shared/rules.ts';

/**
 * Names no guest may take in any spelling (DECISIONS.md "Third wave", "Names and limits"), and
 * the name the shared password's administrator comments under (`Administrace`): it signs in
 * too, so it counts as "anyone who has signed in" (docs/decisions.md).
 */
const RESERVED_NAMES = ['admin', 'administrator', 'moderator', STAFF_AUTHOR] as const;
const RESERVED = new Set(RESERVED_NAMES.map(foldName));

/** What the API document says of a guest's name (an author, a suggester): which ones are refused. */
export const GUEST_NAME_RULE =
  `refused with 400 \`name_reserved\` when it is ${RESERVED_NAMES.join(', ')} in any spelling (look-alike ` +
  'letters and case included) or the login or display name of anyone who has signed in';
/** The default guest name stays allowed, even if a user goes by it. */
const DEFAULT_GUEST = foldName('Anonym');

/**
 * A guest's name as the rules see it (guests/rules.ts): reserved outright, or folded to compare
 * with the login and display name of everyone who has signed in (null: nothing to compare,
 * the default guest name).
 */
export function guestName(name: string): { reserved: boolean; fold: string | null } {
  const folded = foldName(name);
  if (folded === '' || folded === DEFAULT_GUEST) return { reserved: false, fold: null };
  return RESERVED.has(folded) ? { reserved: true, fold: null } : { reserved: false, fold: folded };
}
