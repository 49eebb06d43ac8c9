import { sql } from 'kysely';
import type { Db } from '../db/schema.ts';
import { refusedByRows, type SqlRule } from '../db/sql-rules.ts';
import { ruleWords } from '../lib/names.ts';
import { choiceSql } from '../settings/queries.ts';
import { GUEST_HOLDS, type GuestHold, hasLink } from '../shared/rules.ts';
import { COMMENT_VALUES, type CommentValue, type Draft } from './rules.ts';

/**
 * Whether a new comment waits for staff (DECISIONS.md "Guests earn trust", "Moderators' tools"),
 * written as SQL rules over the post's values and the `guest_hold` setting, asked with the
 * comment's other rules in one query (comments/post.ts): no read of its own. Each refuses with
 * `held`, which holds the post rather than refusing it. A guest's post with a link is held unless
 * the hold is `none`; without one, under `all`, or under `first` while its address has no
 * published guest comment (an address is trusted once one is published: approved, or never
 * held). Signed-in users ask none of them: they are never held, except an account that may be a
 * banned user's return (`held` on the user, from an address a ban remembers: users/bans.ts),
 * until staff approve one of its comments. A guest's post from such an address is held only as
 * `guest_hold` says: the banned person's own browser is refused (`bannedSession`), and the
 * strangers who share an address are not theirs to answer for (docs/decisions.md).
 */
type HoldRule = SqlRule<CommentValue, 'held' | 'held_words'>;

const hold = choiceSql('guest_hold', GUEST_HOLDS);
const holdIs = (word: GuestHold) => sql`${hold} = ${sql.lit(word)}`;

/** A guest's post with a link. */
const WITH_LINK: HoldRule = { error: 'held', refuses: () => sql`not ${holdIs('none')}` };
/** A guest's post without a link, under `all`. */
const HOLD_ALL: HoldRule = { error: 'held', refuses: () => holdIs('all') };
/** A guest's post without a link, under `first`, from an address no published comment trusts. */
const UNTRUSTED: HoldRule = {
  error: 'held',
  refuses: (v) =>
    sql`${holdIs('first')} and not exists (select 1 from comments c
      where c.guest_tag = ${v.guestTag} and c.user_id is null and c.pending = 0)`,
};

/**
 * DECISIONS.md "Words and repeats": a post whose folded words hold one of the administrator's
 * words or phrases (`hold_words`, folded the same way), as whole words (a phrase also run
 * together): for guests and signed-in users alike, never for staff; the user who speaks for the
 * streamer is let through after (comments/post.ts), which is why it holds under a name of its own.
 */
export const HOLD_WORDS: HoldRule = {
  error: 'held_words',
  refuses: (v) => sql`exists (select 1 from hold_words w where ${holdsEntry(v.words)})`,
};

/** Whether folded words (`ruleWords`) hold the entry `w` of `hold_words`. */
const holdsEntry = (words: unknown) =>
  // A phrase matches run together too (`kupfollowery`, or spelt out: `k u p f o l l o w e r y`).
  sql<boolean>`(${words} like ('% ' || w.fold || ' %')
      or ${words} like ('% ' || replace(w.fold, ' ', '') || ' %'))`;

/**
 * Whether a body holds one of the administrator's words (HOLD_WORDS, asked alone): an edit
 * is held as a new comment would be (comments/change.ts), or it would carry past the rule
 * what the rule holds.
 */
export async function holdsWords(db: Db, body: string): Promise<boolean> {
  const values = { words: ruleWords(body) } as Record<CommentValue, unknown>;
  const [refused] = await refusedByRows(db, [HOLD_WORDS], COMMENT_VALUES, [{ values, asks: () => true }]);
  return refused?.has('held_words') ?? false;
}

/** The administrator's words (as written, in the list's order) that a body holds today. */
export async function wordsHeldIn(db: Db, body: string): Promise<string[]> {
  const rows = await db
    .selectFrom('hold_words as w')
    .select('w.word')
    .where(holdsEntry(ruleWords(body)))
    .orderBy('w.position')
    .execute();
  return rows.map((r) => r.word);
}

export const HOLD_RULES: readonly HoldRule[] = [WITH_LINK, HOLD_ALL, UNTRUSTED, HOLD_WORDS];

/** Whether a rule of these holds a post rather than refusing it. */
export const holds = (error: string): boolean => error === 'held' || error === 'held_words';

/**
 * Whether a post asks a hold rule: a guest's, the link's rule or the others by its body; the
 * words' rule anyone's but staff's.
 */
export const asksHold = (rule: HoldRule, d: Pick<Draft, 'guest' | 'staff' | 'body'>): boolean => {
  if (rule === HOLD_WORDS) return !d.staff;
  return d.guest && (rule === WITH_LINK) === hasLink(d.body);
};
