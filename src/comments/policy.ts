import { allows, isStaff, type Role, type Who } from '../shared/roles.ts';
import { COMMENT_EDIT_WINDOW_MS } from '../shared/rules.ts';

/**
 * Who may do what with comments: the routes (comments/routes.ts) decide by these rules and
 * the page shows its buttons by them, so the two cannot disagree. Pure: the page imports it.
 */

/** Each operation's guard. */
export const COMMENT_ROLES = {
  list: 'public',
  /**
   * `mine=1`: the comments one likes, posted from this browser as a guest, or waiting (own.ts):
   * signed-in users, and guests whose session holds comments (the route asks the session).
   */
  mine: 'public',
  post: 'public',
  /** Hide, show or edit (who, of which comment: the rules below). */
  change: 'signedInOrAdmin',
  /** `like=1`: a banned user's session reaches the route, which answers `banned`. */
  like: 'signedInOrBanned',
  /** The administrator any comment, a guest what this browser posted (`mayDeleteComment`). */
  delete: 'public',
  /**
   * `pin=1`: staff, or the user who speaks for the comment's streamer, a rule of the data
   * (catalogue/speaks-for.ts) that the operation asks (comments/pin.ts `mayPin`), answering
   * 401, 403 `banned` or 403 `not_allowed`; open to the route so a banned session hears why.
   */
  pin: 'public',
} as const satisfies Record<string, Role>;

/** What the rules need to know of a comment. */
export interface CommentFacts {
  user_id: number | null;
  created_at: string;
  /** Who hid it, when hidden: its author, or staff (an author cannot undo staff's hiding). */
  hidden_by?: 'author' | 'staff' | null;
}

/** Written by this signed-in user. */
export const isOwn = (who: Who, c: CommentFacts): boolean => who.user !== null && c.user_id === who.user.id;

/** The author may still edit a comment this old (DECISIONS.md: 15 minutes). */
const editWindowOpen = (c: CommentFacts, now: number): boolean =>
  now - Date.parse(c.created_at) <= COMMENT_EDIT_WINDOW_MS;

/** The author edits their own comment within the window. */
export const mayEdit = (who: Who, c: CommentFacts, now: number): boolean =>
  isOwn(who, c) && editWindowOpen(c, now);

/**
 * Hide or show again: staff any comment; the author hides their own and shows again what
 * they hid themselves (not what staff hid).
 */
export const maySetHidden = (who: Who, c: CommentFacts, hidden: boolean): boolean =>
  isStaff(who) || (isOwn(who, c) && (hidden || c.hidden_by !== 'staff'));

/** Hiding by staff on someone else's comment is recorded (and blocks the author's undo). */
export const hiddenBy = (who: Who, c: CommentFacts): 'author' | 'staff' =>
  isStaff(who) && !isOwn(who, c) ? 'staff' : 'author';

/** The administrator deletes any comment. */
export const mayDelete = (who: Who): boolean => allows('admin', who);

/**
 * Delete this comment: the administrator any, a guest one this browser posted (its signed
 * cookie's ids, own-cookie.ts, which the page gets as `own` from `mine=1`).
 */
export const mayDeleteComment = (who: Who, ownIds: readonly number[], id: number): boolean =>
  mayDelete(who) || ownIds.includes(id);

/**
 * Comments as a guest: neither a signed-in user nor the administrator. With `auth_enabled` a
 * guest must sign in first (rules.ts `SIGN_IN`, which the page shows before one writes).
 */
export const commentsAsGuest = (who: Who): boolean => who.user === null && !who.isAdmin;

/**
 * A comment everyone may see, and so like, report or reply to: neither hidden nor held for
 * staff (DECISIONS.md: held comments are "in no answer but staff's"). Others are not found.
 */
export const isShown = (c: { hidden: number; pending: number }): boolean => c.hidden === 0 && c.pending === 0;

/** Likes are by signed-in users who are not banned. */
export const mayLike = (who: Who): boolean => who.user !== null;

/** Pin or unpin a comment of this streamer: staff, and the user who speaks for the streamer. */
export const mayPin = (who: Who, speaksFor: readonly number[], streamerId: number): boolean =>
  isStaff(who) || (who.user !== null && speaksFor.includes(streamerId));

/** What may be pinned: a top-level comment everyone sees (not a reply, not hidden, not held). */
export const pinnable = (c: { reply_to: number | null; hidden: boolean; pending?: boolean }): boolean =>
  c.reply_to === null && !c.hidden && c.pending !== true;
