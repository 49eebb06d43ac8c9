import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { earlierRow, type SqlRule, type ValueType } from '../db/sql-rules.ts';
import { fail } from '../errors.ts';
import { guestName } from '../guests/names.ts';
import {
  ADDRESS_BLOCKED,
  SESSION_TIMED_OUT,
  burstSince,
  CHALLENGE_DUE,
  GUEST_VALUES,
  type GuestValue,
  NAME_TAKEN,
} from '../guests/rules.ts';
import { cleanText, codePointLength, nameLine, parseId } from '../lib/input.ts';
import { foldWords, ruleWords } from '../lib/names.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { isStaff } from '../shared/roles.ts';
import { DEFAULT_AUTHOR, LIMITS, REPEAT_MINUTES, shownLength, STAFF_AUTHOR } from '../shared/rules.ts';
import { commentsAsGuest } from './policy.ts';

/**
 * The rules of a new comment, written once (DECISIONS.md "Comments", "Guests, names and
 * bans"), in the order their errors win (DECISIONS.md "Errors"): sign-in required (401), a
 * banned session, a timed-out user's address or a blocked address (403), the streamer id, the
 * body, the thread and the guest's name (400), the streamer (404). The rules that ask the database are SQL conditions
 * over the comment's values (`DB_RULES`, db/sql-rules.ts; the guests' own come from
 * guests/rules.ts, which suggestions share), asked for every post of a group commit in one
 * query (comments/post.ts), a post alone being a group of one; `checkComment` then decides each
 * post's error. Tested rule by rule, alone and in a group (test/comment-rules.test.ts).
 */

/** The body fields a post reads (as lenient as the route). */
export interface PostInput {
  streamer_id?: unknown;
  body?: unknown;
  author?: unknown;
  reply_to?: unknown;
  /** A guest's solution of the challenge (guests/challenge.ts). */
  altcha?: unknown;
}

/** A comment as posted, before the checks that ask the database. */
export interface Draft {
  /** Posted without a signed-in user or the administrator flag (DECISIONS.md "Third wave"). */
  guest: boolean;
  /** The guest's session was a banned user's. */
  bannedSession: boolean;
  /** Posted by staff (an administrator or a moderator): the administrator's words and repeats do not apply. */
  staff: boolean;
  /** The signed-in author, null for a guest or the administrator without an account. */
  userId: number | null;
  /** The body's words as the word rules read them (lib/names.ts `ruleWords`, comments/hold.ts `HOLD_WORDS`). */
  words: string;
  /** A digest of the folded body (`repeatKey`). */
  repeatKey: string;
  /** Since when an equal comment of the author is a repeat. */
  repeatSince: string;
  streamerId: number | null;
  /** The body trimmed. */
  body: string;
  /** Its length is outside SPEC.md's 2 to 1000 characters. */
  bodyError: 'comment_too_short' | 'comment_too_long' | null;
  author: string;
  /** A guest's name folded, still to be compared with the users' names; null: nothing to compare. */
  nameFold: string | null;
  /** A guest name that is reserved whatever the users' names are. */
  nameReserved: boolean;
  guestTag: string;
  createdAt: string;
  /** Where a guest's burst of posts starts (guests/rules.ts), null with rate limits off. */
  burstSince: string | null;
  /** The user who signed out of this browser's session last (guests/rules.ts `SESSION_TIMED_OUT`). */
  signedOut: number | null;
}

/** SPEC.md's body rules: trimmed, 2 (that show, shared/rules.ts) to 1000 characters (code points). */
function bodyError(body: string): Draft['bodyError'] {
  if (shownLength(body) < LIMITS.commentMin) return 'comment_too_short';
  return codePointLength(body) > LIMITS.commentMax ? 'comment_too_long' : null;
}

/** A body that keeps SPEC.md's rules (a new comment, an edit, a streamer's reply), else its 400. */
export function commentBody(value: unknown): string {
  const body = cleanText(value) ?? '';
  const error = bodyError(body);
  if (error) throw fail(error);
  return body;
}

/** What a post says, with every check that needs no database already made. */
export function draftOf(
  viewer: Viewer,
  input: PostInput,
  guestTag: string,
  now: Date,
  rateLimit: boolean,
): Draft {
  const guest = commentsAsGuest(viewer);
  // DECISIONS.md "Fifth wave", "The change": the administrator keeps the name they give.
  const given = nameLine(input.author, LIMITS.author);
  const author = viewer.user
    ? viewer.user.display_name
    : given || (viewer.isAdmin ? STAFF_AUTHOR : DEFAULT_AUTHOR);
  const name = guest ? guestName(author) : { reserved: false, fold: null };
  const body = cleanText(input.body) ?? '';
  const folded = foldWords(body);
  return {
    guest,
    bannedSession: guest && (viewer.bannedUser || viewer.bannedSession),
    staff: isStaff(viewer),
    userId: viewer.user?.id ?? null,
    words: ruleWords(body, folded),
    repeatKey: keyOfFolded(folded),
    repeatSince: new Date(now.getTime() - REPEAT_MINUTES * 60_000).toISOString(),
    streamerId: parseId(input.streamer_id),
    body,
    bodyError: bodyError(body),
    author,
    nameFold: name.fold,
    nameReserved: name.reserved,
    guestTag,
    createdAt: now.toISOString(),
    burstSince: burstSince(rateLimit, now),
    signedOut: viewer.signedOut,
  };
}

/**
 * What tells two comments of an author apart for the rule against repeats: a digest of the
 * folded body (lib/names.ts), stored with every comment (`repeat_key`), so that `Free coins!`
 * and `FREE  coins` are one comment twice.
 */
export const repeatKey = (body: string): string => keyOfFolded(foldWords(body));

/** `repeatKey` of a body already folded (a post folds its body once, for its words and this). */
const keyOfFolded = (folded: string): string =>
  createHash('sha256').update(folded).digest('base64url').slice(0, 22);

/** The values a comment's rules read. */
export type CommentValue = GuestValue | 'streamerId' | 'userId' | 'words' | 'repeatKey' | 'repeatSince';

/**
 * A rule that asks the database, and whom it applies to: guests, guests with a name to compare,
 * everyone but staff, everyone.
 */
export interface CommentRule extends SqlRule<CommentValue> {
  to: 'guests' | 'named' | 'members' | 'all';
}

export const SIGN_IN: CommentRule = {
  error: 'sign_in_required',
  to: 'guests',
  refuses: () => sql`exists (select 1 from settings where key = 'auth_enabled' and value = 'true')`,
};

export const NO_STREAMER: CommentRule = {
  error: 'streamer_not_found',
  to: 'all',
  refuses: (v) => sql`not exists (select 1 from streamers s where s.id = ${v.streamerId})`,
};

/** While `refuse_repeats` is on (an SQL condition, also the one under which posts lock, comments/post.ts). */
export const REFUSING_REPEATS =
  "exists (select 1 from settings where key = 'refuse_repeats' and value = 'true')";

/** Who a post is by, for the rule against repeats: the user, or the guest's address. */
export const repeatLock = (d: Draft): string => `repeat:${d.userId ?? `guest:${d.guestTag}`}:${d.repeatKey}`;

/**
 * DECISIONS.md "Words and repeats": while `refuse_repeats` is on, the author's comment of the
 * last 10 minutes again, on any streamer (the same author: the user; for a guest, the guest tag),
 * or an equal post of the author before it in the same group.
 */
export const REPEATED: CommentRule = {
  error: 'duplicate_comment',
  to: 'members',
  refuses: (v) => sql`${sql.raw(REFUSING_REPEATS)}
    and (exists (select 1 from comments c
          where c.repeat_key = ${v.repeatKey} and c.created_at > ${v.repeatSince}
            and (c.user_id = ${v.userId}
              or (${v.userId} is null and c.user_id is null and c.is_admin = 0 and c.guest_tag = ${v.guestTag})))
      or ${earlierRow(
        v,
        (e) => sql`${e.repeatKey} = ${v.repeatKey}
          and (${e.userId} = ${v.userId} or (${v.userId} is null and ${e.userId} is null and ${e.guestTag} = ${v.guestTag}))`,
      )})`,
};

/** Every rule of a new comment that asks the database. */
export const DB_RULES: readonly CommentRule[] = [
  SIGN_IN,
  { ...SESSION_TIMED_OUT, to: 'guests' },
  { ...ADDRESS_BLOCKED, to: 'guests' },
  { ...NAME_TAKEN, to: 'named' },
  NO_STREAMER,
  REPEATED,
  { ...CHALLENGE_DUE, to: 'guests' },
];

/** Their SQL types. */
export const COMMENT_VALUES: Record<CommentValue, ValueType> = {
  ...GUEST_VALUES,
  streamerId: 'integer',
  userId: 'integer',
  words: 'text',
  repeatKey: 'text',
  repeatSince: 'text',
};

/**
 * Whether a draft asks this rule: guests' rules for guests, the name's where there is one to
 * compare, the members' for everyone but staff.
 */
export const appliesTo = (rule: CommentRule, d: Draft): boolean => {
  if (rule.to === 'all') return d.streamerId !== null;
  if (rule.to === 'members') return !d.staff && d.streamerId !== null;
  return d.guest && (rule.to === 'guests' || d.nameFold !== null);
};

/** The values a draft's rules read. */
export const valuesOf = (d: Draft): Record<CommentValue, unknown> => ({
  streamerId: d.streamerId,
  guestTag: d.guestTag,
  createdAt: d.createdAt,
  nameFold: d.nameFold,
  burstSince: d.burstSince,
  signedOut: d.signedOut,
  userId: d.userId,
  words: d.words,
  repeatKey: d.repeatKey,
  repeatSince: d.repeatSince,
});

/**
 * Checks a draft one rule after the other in the order their errors win, and throws the first
 * error: `refused` holds the errors of DB_RULES that refuse it (asked for a group's drafts at
 * once, comments/post.ts); `thread` finds the comment a reply joins (its own errors) between the
 * body and the name.
 */
export async function checkComment(
  d: Draft,
  refused: ReadonlySet<string>,
  thread: () => Promise<number | null>,
  challenge: () => Promise<void>,
): Promise<{ streamerId: number; body: string; replyTo: number | null }> {
  if (refused.has('sign_in_required')) throw fail('sign_in_required');
  if (d.bannedSession) throw fail('banned');
  if (refused.has('timed_out')) throw fail('timed_out');
  if (refused.has('address_blocked')) throw fail('address_blocked');
  if (d.streamerId === null) throw fail('missing_streamer_id');
  if (d.bodyError) throw fail(d.bodyError);
  const replyTo = await thread();
  if (d.nameReserved || refused.has('name_reserved')) throw fail('name_reserved');
  if (refused.has('streamer_not_found')) throw fail('streamer_not_found');
  if (refused.has('duplicate_comment')) throw fail('duplicate_comment');
  if (refused.has('challenge_required')) await challenge();
  return { streamerId: d.streamerId, body: d.body, replyTo };
}
