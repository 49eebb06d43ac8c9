import type { AppContext } from '../context.ts';
import type { Db } from '../db/schema.ts';
import { refusedByRows, type SqlRule } from '../db/sql-rules.ts';
import type { ErrorCode } from '../errors.ts';
import { type Batch, type Outcome, writeBatched } from '../db/transaction.ts';
import { type Keep, keepNothing } from '../idempotency/keep.ts';
import { fail } from '../errors.ts';
import { parseId } from '../lib/input.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { notifyComment } from '../notifications/notify.ts';
import { lockBursts, passChallenge } from '../guests/challenge.ts';
import { asksHold, HOLD_RULES } from './hold.ts';
import { findComment, insertComments, type NewComment } from './queries.ts';
import {
  appliesTo,
  checkComment,
  COMMENT_VALUES,
  type CommentValue,
  DB_RULES,
  type Draft,
  draftOf,
  type PostInput,
  valuesOf,
} from './rules.ts';

/**
 * The thread a reply joins (DECISIONS.md "Taking part"): a visible comment of the same
 * streamer; a reply to a reply joins that reply's thread, so threads stay one level deep.
 * No `reply_to` (absent, 0, not a number) is a top-level comment. `answered` holds the
 * comment named as sent and the thread's top (whose authors a reply notifies).
 */
async function threadOf(
  db: Db,
  value: unknown,
  streamerId: number | null,
  answered: number[],
): Promise<number | null> {
  const parentId = parseId(value);
  if (parentId === null) return null;
  const parent = await findComment(db, parentId);
  if (!parent || parent.hidden === 1 || parent.pending === 1 || parent.streamer_id !== streamerId) {
    throw fail('invalid_reply_to');
  }
  answered.push(parent.id);
  if (parent.reply_to === null) return parent.id;
  const top = await findComment(db, parent.reply_to);
  if (!top || top.hidden === 1) throw fail('invalid_reply_to');
  answered.push(top.id);
  return top.id;
}

/** The answer to a comment posted (SPEC.md's POST /api/comments). */
function answerOf(id: number, comment: NewComment, viewer: Viewer) {
  const { user } = viewer;
  return {
    ...(comment.pending === 1 ? { pending: true } : {}),
    id,
    author: comment.author,
    body: comment.body,
    is_admin: viewer.isAdmin,
    created_at: comment.created_at,
    reply_to: comment.reply_to ?? null,
    ...(user
      ? { user_display: user.display_name, user_avatar: user.avatar, user_provider: user.provider }
      : {}),
  };
}

/** A post as its group commit runs it: what it says, with every check that needs no database made. */
interface Post {
  ctx: AppContext;
  viewer: Viewer;
  input: PostInput;
  d: Draft;
  /** A signed-in user's account that waits for staff (a guest's hold is asked with its rules, hold.ts). */
  userHeld: boolean;
  now: Date;
  keep: Keep;
}

type Answer = ReturnType<typeof answerOf>;

/** A comment accepted, as it is stored. */
type Accepted = NewComment & {
  streamer_id: number;
  created_at: string;
  body: string;
  user_id: number | null;
};

/**
 * Posts a comment: the rules of rules.ts, then one write, the same on both databases. Posts
 * share a group commit (db/transaction.ts `writeBatched`), which runs the posts of a group
 * together (`postMany`), a post alone being a group of one.
 */
export async function postComment(
  ctx: AppContext,
  viewer: Viewer,
  input: PostInput,
  guestTag: string,
  now: Date,
  /** Keeps the answer under the request's Idempotency-Key, in the comment's transaction. */
  keep: Keep = keepNothing,
): Promise<Answer> {
  const d = draftOf(viewer, input, guestTag, now, ctx.config.rateLimit);
  const userHeld = viewer.user?.held ?? false;
  // A comment, its challenge's use and its notifications: no session row or user changes.
  return writeBatched(ctx.database, COMMENT_POSTS, { ctx, viewer, input, d, userHeld, now, keep }, 'content');
}

/** A guest's post that the burst rule counts (guests/challenge.ts): one of its address at a time. */
const countsBurst = (d: Draft) => d.guest && d.burstSince !== null;

/** Every rule a post asks the database and whether it waits for staff (hold.ts), with the posts that ask each. */
const ASKED = new Map<SqlRule<CommentValue, ErrorCode | 'held'>, (d: Draft) => boolean>([
  ...DB_RULES.map((rule) => [rule, (d: Draft) => appliesTo(rule, d)] as const),
  ...HOLD_RULES.map((rule) => [rule, (d: Draft) => asksHold(rule, d.guest, d.body)] as const),
]);
const ASKED_RULES = [...ASKED.keys()];

/**
 * The posts of a group, in rounds of posts that cannot change each other's rules: a guest's
 * burst of posts counts the posts before it (guests/challenge.ts), so a second post of the same
 * address under the burst rule waits for the next round. Each round: every post's rules in one
 * query; each post's own checks (its thread, its challenge) in the order its errors win; the
 * accepted comments in one insert; then each one's notifications, live events and kept answer.
 * A refused post writes nothing but a used challenge's clean-up.
 */
async function postMany(trx: Db, posts: readonly Post[]): Promise<Outcome<Answer>[]> {
  const outcomes: Outcome<Answer>[] = [];
  let waiting = posts.map((post, i) => ({ post, i }));
  while (waiting.length > 0) {
    const round: typeof waiting = [];
    const later: typeof waiting = [];
    const counted = new Set<string>();
    for (const w of waiting) {
      const counts = countsBurst(w.post.d);
      if (counts && counted.has(w.post.d.guestTag)) later.push(w);
      else {
        if (counts) counted.add(w.post.d.guestTag);
        round.push(w);
      }
    }
    await lockBursts(
      trx,
      round.filter(({ post }) => countsBurst(post.d)).map(({ post }) => post.d.guestTag),
    );
    const refused = await refusedByRows(
      trx,
      ASKED_RULES,
      COMMENT_VALUES,
      round.map(({ post }) => ({
        values: valuesOf(post.d),
        asks: (rule) => ASKED.get(rule)?.(post.d) ?? false,
      })),
    );
    const accepted: { i: number; post: Post; comment: Accepted; answered: number[] }[] = [];
    for (const [k, { post, i }] of round.entries()) {
      const { d, input, ctx, now } = post;
      const answered: number[] = [];
      try {
        const checked = await checkComment(
          d,
          refused[k] ?? new Set(),
          () => threadOf(trx, input.reply_to, d.streamerId, answered),
          () => passChallenge(trx, ctx.challengeKey, input.altcha, now),
        );
        const comment = {
          streamer_id: checked.streamerId,
          user_id: post.viewer.user?.id ?? null,
          author: d.author,
          body: d.body,
          is_admin: post.viewer.isAdmin ? 1 : 0,
          created_at: d.createdAt,
          guest_tag: d.guestTag,
          reply_to: checked.replyTo,
          pending: post.userHeld || refused[k]?.has('held') ? 1 : 0,
        };
        accepted.push({ i, post, comment, answered });
      } catch (err) {
        outcomes[i] = { ok: false, err };
      }
    }
    const ids = await insertComments(
      trx,
      accepted.map((a) => a.comment),
    );
    for (const [k, { i, post, comment, answered }] of accepted.entries()) {
      const id = ids[k];
      if (id === undefined) throw new Error('a comment of the group got no id');
      // A held comment notifies nobody until it is approved (moderation's approve does then).
      if (comment.pending !== 1) await notifyComment(trx, { ...comment, id }, answered);
      // Its answer, kept under the request's Idempotency-Key in this very transaction.
      outcomes[i] = { ok: true, value: await post.keep(trx, answerOf(id, comment, post.viewer)) };
    }
    waiting = later;
  }
  return outcomes;
}

const COMMENT_POSTS: Batch<Post, Answer> = { many: postMany };
