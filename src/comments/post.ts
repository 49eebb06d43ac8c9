import type { AppContext } from '../context.ts';
import type { Db } from '../db/schema.ts';
import { advisoryKey } from '../db/group-locks.ts';
import type { Batch, Outcome } from '../db/batched.ts';
import { writeBatched } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import { passChallenge } from '../guests/challenge.ts';
import { lockBursts } from '../guests/rules.ts';
import { type Keep, keepNothing } from '../idempotency/keep.ts';
import { parseId } from '../lib/input.ts';
import { notifyComment } from '../notifications/notify.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { speaksFor } from '../catalogue/speaks-for.ts';
import { holds } from './hold.ts';
import { isShown } from './policy.ts';
import { findComment, insertComments, type NewComment, releaseHeld } from './queries.ts';
import {
  appliesTo,
  checkComment,
  type Draft,
  draftOf,
  type PostInput,
  REFUSING_REPEATS,
  REPEATED,
  repeatLock,
  valuesOf,
} from './rules.ts';
import { type Accepted, ASKED, askAndStore } from './store.ts';

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
  if (!parent || !isShown(parent) || parent.streamer_id !== streamerId) {
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

/** A guest's post that the burst rule counts (guests/rules.ts): one of its address at a time. */
const countsBurst = (d: Draft) => d.guest && d.burstSince !== null;

/**
 * The posts of a group, in rounds of posts that cannot change each other's rules: a guest's
 * burst of posts counts the posts before it (guests/rules.ts), so a second post of the same
 * address under the burst rule waits for the next round. Each round: each post's thread; one
 * statement that asks every post's rules and stores the comments of the posts that every check
 * lets through (`askAndStore`); each other post's checks in the order its errors win, and the
 * few that solved a challenge stored after it; then each stored one's notifications, live
 * events and kept answer. A refused post writes nothing but a used challenge's clean-up.
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
    // Each post's thread first (a read), then whether every check that asks no rule passes.
    const prepared = [];
    for (const { post, i } of round) {
      const { d, input } = post;
      const answered: number[] = [];
      const thread = await threadOf(trx, input.reply_to, d.streamerId, answered).then(
        (value): Outcome<number | null> => ({ ok: true, value }),
        (err: unknown): Outcome<number | null> => ({ ok: false, err }),
      );
      const threadIs = async () => {
        if (!thread.ok) throw thread.err;
        return thread.value;
      };
      const checked = await checkComment(d, NO_RULE, threadIs, async () => undefined).catch(() => null);
      prepared.push({ post, i, answered, threadIs, ready: checked && commentOf(post, checked) });
    }
    const asked = await askAndStore(
      trx,
      round.map(({ post }) => ({
        values: valuesOf(post.d),
        asks: (rule) => ASKED.get(rule)?.(post.d) ?? false,
      })),
      prepared.map((p) => p.ready),
    );
    const accepted: { i: number; post: Post; comment: Accepted; answered: number[]; id?: number }[] = [];
    for (const [k, { post, i, answered, threadIs, ready }] of prepared.entries()) {
      const stored = asked.stored[k];
      const refused = asked.refused[k] ?? new Set();
      if (stored && ready) {
        let pending = stored.pending;
        if (pending === 1 && (await spokenFor(trx, post, refused))) {
          await releaseHeld(trx, stored.id);
          pending = 0;
        }
        accepted.push({ i, post, comment: { ...ready, pending }, answered, id: stored.id });
        continue;
      }
      // Not stored: the first error in the order errors win, or a challenge to pass first.
      const { d, input, ctx, now } = post;
      try {
        const checked = await checkComment(d, refused, threadIs, () =>
          passChallenge(trx, ctx.challengeKey, input.altcha, now),
        );
        const comment = commentOf(post, checked);
        const held = [...refused].some(holds) && !(await spokenFor(trx, post, refused));
        accepted.push({ i, post, comment: { ...comment, pending: held ? 1 : comment.pending }, answered });
      } catch (err) {
        outcomes[i] = { ok: false, err };
      }
    }
    const late = accepted.filter((a) => a.id === undefined);
    const lateIds = await insertComments(
      trx,
      late.map((a) => a.comment),
    );
    late.forEach((a, k) => (a.id = lateIds[k]));
    for (const { i, post, comment, answered, id } of accepted) {
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

/**
 * A post that only the administrator's words hold, by the user who speaks for its streamer: not
 * held after all (DECISIONS.md "Words and repeats"). Asked after the rules, and only for such a
 * post, so that no other post reads who speaks for a streamer.
 */
async function spokenFor(trx: Db, post: Post, refused: ReadonlySet<string>): Promise<boolean> {
  const { user } = post.viewer;
  const { streamerId } = post.d;
  if (!refused.has('held_words') || refused.has('held') || post.userHeld) return false;
  return user !== null && streamerId !== null && speaksFor(trx, user.id, streamerId);
}

/** No rule refuses: the checks that ask none. */
const NO_RULE: ReadonlySet<string> = new Set();

/** The comment a post stores once its checks passed (held as its account is; the rules may hold it too). */
const commentOf = (post: Post, checked: { streamerId: number; replyTo: number | null }): Accepted => ({
  streamer_id: checked.streamerId,
  user_id: post.viewer.user?.id ?? null,
  author: post.d.author,
  body: post.d.body,
  is_admin: post.viewer.isAdmin ? 1 : 0,
  created_at: post.d.createdAt,
  guest_tag: post.d.guestTag,
  reply_to: checked.replyTo,
  pending: post.userHeld ? 1 : 0,
  repeat_key: post.d.repeatKey,
});

/**
 * Posts of two groups that could repeat each other (`REPEATED`, which asks the rows of its own
 * group itself) wait for each other while repeats are refused: each group locks its posts'
 * author-and-body keys as it begins (PostgreSQL; SQLite writes one group at a time).
 */
const COMMENT_POSTS: Batch<Post, Answer> = {
  many: postMany,
  locks: {
    keys: (posts) => posts.filter((p) => appliesTo(REPEATED, p.d)).map((p) => advisoryKey(repeatLock(p.d))),
    when: REFUSING_REPEATS,
  },
};
