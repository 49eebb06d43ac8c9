import { sql } from 'kysely';
import type { Db } from '../db/schema.ts';
import { refusedBy, type SqlRule, type ValueType } from '../db/sql-rules.ts';
import { fail } from '../errors.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { CHALLENGE_DUE, lockBursts } from './challenge.ts';
import { guestName } from './names.ts';

/**
 * What a guest (no signed-in user, no administrator flag: DECISIONS.md "Third wave") must pass
 * to comment or suggest: the session of a banned user stays banned after the ban signed it out,
 * a blocked address may not post, and the name given may not be reserved or anyone's who has
 * signed in (banned users included: a ban is not a way to free a name).
 */

/** The values a guest's rules read. */
export type GuestValue = 'guestTag' | 'createdAt' | 'nameFold' | 'burstSince';

/** Their SQL types. */
export const GUEST_VALUES: Record<GuestValue, ValueType> = {
  guestTag: 'text',
  createdAt: 'text',
  nameFold: 'text',
  burstSince: 'text',
};

export const ADDRESS_BLOCKED: SqlRule<GuestValue> = {
  error: 'address_blocked',
  refuses: (v) =>
    sql`exists (select 1 from address_blocks b where b.guest_tag = ${v.guestTag} and b.expires_at > ${v.createdAt})`,
};

export const NAME_TAKEN: SqlRule<GuestValue> = {
  error: 'name_reserved',
  refuses: (v) =>
    sql`exists (select 1 from users u where u.login_fold = ${v.nameFold} or u.display_fold = ${v.nameFold})`,
};

export interface GuestPost {
  guestTag: string;
  createdAt: string;
  /** The name the guest gives (an author, a suggester's label), checked after `between`. */
  name: string;
  /** Where the burst of posts starts, null with rate limits off (guests/challenge.ts). */
  burstSince: string | null;
  /**
   * Asked last, when the challenge is due: passes, or throws 428 or 400, or leaves it to the
   * post's own transaction (a refused post must not use the solution up).
   */
  challenge: () => Promise<void>;
}

/**
 * Checks a guest's post in the order the errors win: banned (403), blocked (403), then
 * `between` (the post's own 400s), then the name (400). Anyone else passes at once.
 */
export async function checkGuestPost(
  db: Db,
  viewer: Viewer,
  post: GuestPost,
  between: () => void,
): Promise<void> {
  if (viewer.user || viewer.isAdmin) return between();
  if (viewer.bannedUser || viewer.bannedSession) throw fail('banned');
  const name = guestName(post.name);
  const rules =
    name.fold === null ? [ADDRESS_BLOCKED, CHALLENGE_DUE] : [ADDRESS_BLOCKED, NAME_TAKEN, CHALLENGE_DUE];
  const { guestTag, createdAt, burstSince } = post;
  if (burstSince !== null) await lockBursts(db, [guestTag]);
  const refused = await refusedBy(db, rules, GUEST_VALUES, {
    guestTag,
    createdAt,
    burstSince,
    nameFold: name.fold,
  });
  if (refused.has('address_blocked')) throw fail('address_blocked');
  between();
  if (name.reserved || refused.has('name_reserved')) throw fail('name_reserved');
  if (refused.has('challenge_required')) await post.challenge();
}
