import type { Db } from '../db/schema.ts';
import { foldCase, type Provider } from '../shared/rules.ts';
import type { EntryAnswer } from './schemas.ts';

/** A person in an entry's parameters (`who` in actions.ts). */
type Person = { login: string; display_name?: string; provider: Provider };

/** The person an entry names by login alone: written before entries kept the display name. */
function unnamed(entry: EntryAnswer): Person | null {
  const p = entry.params as Partial<Person> | undefined;
  if (!p || typeof p.login !== 'string' || typeof p.provider !== 'string') return null;
  return p.login !== '' && p.display_name === undefined ? (p as Person) : null;
}

/**
 * Older entries name a person by login only (Twitch's is lower-cased; a team entry kept the
 * login as typed, folded), where the page names people by display name. Shown, such an entry
 * takes the display name of the account its login names now, and only when that is sure: on
 * an entry about a user (`user.*`, whose target is that user) that account's; on a team entry
 * the one account of that provider that holds the login. A deleted account's entry (an empty
 * login) stays unnamed; nothing is written back.
 */
export async function nameOldEntries(db: Db, entries: readonly EntryAnswer[]): Promise<void> {
  const found = entries.flatMap((entry) => {
    const person = unnamed(entry);
    return person ? [{ entry, person, key: foldCase(person.login) }] : [];
  });
  if (found.length === 0) return;
  const users = await db
    .selectFrom('users')
    .select(['id', 'provider', 'login_key', 'display_name'])
    .where('provider', 'in', [...new Set(found.map((f) => f.person.provider))])
    .where('login_key', 'in', [...new Set(found.map((f) => f.key))])
    .execute();
  for (const { entry, person, key } of found) {
    const holders = users.filter((u) => u.provider === person.provider && u.login_key === key);
    const user = entry.action.startsWith('user.')
      ? holders.find((u) => u.id === entry.target_id)
      : holders.length === 1
        ? holders[0]
        : undefined;
    if (user) person.display_name = user.display_name;
  }
}
