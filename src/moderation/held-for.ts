import { wordsHeldIn } from '../comments/hold.ts';
import type { Db } from '../db/schema.ts';
import { hasLink } from '../shared/rules.ts';

/** Why a held comment waits, as the queue tells staff. */
export const HELD_FOR = ['account', 'words', 'link', 'guest'] as const;
export type HeldFor = (typeof HELD_FOR)[number];

type Held = { id: number; pending?: boolean; user_id: number | null; body: string };

/**
 * Why each held comment of the queue waits (docs/decisions.md "Held comments"), read from
 * what holds a comment today, the first that applies: `account`, its author's account waits as
 * a banned user's possible return; `words`, its body holds the administrator's words (named in
 * `held_words`; none left when the list changed since); `link`, a guest's comment with a link;
 * `guest`, any other guest's comment (the `guest_hold` setting). Comments that do not wait are
 * left out.
 */
export async function whyHeld(db: Db, items: readonly Held[]) {
  const held = items.filter((c) => c.pending === true);
  const why = new Map<number, { held_for: HeldFor; held_words: string[] }>();
  if (held.length === 0) return why;
  const userIds = [...new Set(held.flatMap((c) => (c.user_id === null ? [] : [c.user_id])))];
  const heldUsers = new Set(
    userIds.length === 0
      ? []
      : (
          await db.selectFrom('users').select('id').where('id', 'in', userIds).where('held', '=', 1).execute()
        ).map((u) => u.id),
  );
  for (const c of held) {
    const words = await wordsHeldIn(db, c.body);
    const heldFor: HeldFor =
      c.user_id !== null && heldUsers.has(c.user_id)
        ? 'account'
        : words.length > 0 || c.user_id !== null
          ? 'words'
          : hasLink(c.body)
            ? 'link'
            : 'guest';
    why.set(c.id, { held_for: heldFor, held_words: words });
  }
  return why;
}
