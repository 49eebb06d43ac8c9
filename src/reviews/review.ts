import { actorOf, audit } from '../audit/queries.ts';
import type { AppContext } from '../context.ts';
import { lockRow } from '../db/dialect.ts';
import type { Db } from '../db/schema.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail, givenId } from '../errors.ts';
import { cleanText, cut, truthy } from '../lib/input.ts';
import { clampScores } from '../lib/scores.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { REVIEWS } from '../shared/reviews.ts';
import { type Reviewer, type ReviewInput, type ReviewItem, reviewsOf, saveReview } from './queries.ts';
import { medianScores, spreadOf } from './tally.ts';

/**
 * A staff member's review or abstention (DECISIONS.md "Staff reviews"), and what they may read
 * of the others': nothing, until their own is saved.
 */

/**
 * Who reviews: the shared password's administrator (`Administrace`, no account) when the
 * session has that flag, as the audit log names the actor (audit/queries.ts `actorOf`), else the
 * signed-in staff member.
 */
export const reviewerOf = (viewer: Viewer): Reviewer =>
  viewer.passwordAdmin ? null : (viewer.user?.id ?? null);

/**
 * A staff write's caller: a banned session 403 `banned` (unless the shared password makes it
 * the administrator), anyone else not allowed 401 `Unauthorized`.
 */
export function assertStaffWriter(viewer: Viewer, allowed: (v: Viewer) => boolean): void {
  if (allowed(viewer)) return;
  throw fail(viewer.bannedUser ? 'banned' : 'unauthorized');
}

/** The body of a review: `{r, note}` or `{abstain: true, note}`. */
export function reviewInput(body: { r?: unknown; note?: unknown; abstain?: unknown }): ReviewInput {
  const note = cleanText(body.note);
  return {
    r: truthy(body.abstain) ? null : clampScores(body.r),
    note: note === undefined || note === '' ? null : cut(note, REVIEWS.noteMax),
  };
}

/**
 * The streamer's row locked (PostgreSQL; SQLite's group commit runs writes one at a time): its
 * reviews and a publish of them take turns, so a review is either counted by a publish and
 * cleared with the others, or saved after it for the next one. Answers the streamer's name.
 */
export async function lockStreamer(trx: Db, streamerId: number): Promise<string> {
  await lockRow(trx, 'streamers', streamerId);
  const row = await trx
    .selectFrom('streamers')
    .select('name')
    .where('id', '=', streamerId)
    .executeTakeFirst();
  if (!row) throw fail('streamer_not_found');
  return row.name;
}

/** Saves the caller's review (or abstention), replacing theirs; audited without its scores or note. */
export async function review(ctx: AppContext, viewer: Viewer, id: number | null, input: ReviewInput) {
  // Who may review was asked before the body was read (routes.ts `callerOfReviews`).
  const streamerId = givenId(id, 'missing_streamer_id');
  const now = ctx.clock.now();
  await writeTransaction(
    ctx.database,
    async (trx) => {
      const name = await lockStreamer(trx, streamerId);
      await saveReview(trx, streamerId, reviewerOf(viewer), input, now.toISOString());
      // Blind: the log says who reviewed, never what (an administrator who has not rated reads it).
      await audit(trx, actorOf(viewer, now), {
        action: 'review.save',
        target_id: streamerId,
        params: { name, abstain: input.r === null },
      });
    },
    'content',
  );
}

/** What `GET /api/reviews?streamer_id=N` answers. */
export type ReviewsAnswer =
  | { mine: null; count: number; reviews: null }
  | {
      mine: ReviewItem;
      count: number;
      reviews: ReviewItem[];
      median: ReviewItem['r'];
      spread: number | null;
    };

/**
 * The streamer's reviews as the caller may see them: blind (`mine` and `reviews` null, only the
 * count) until the caller's own review or abstention is saved; then every review, the median of
 * the non-abstaining ones and their spread (null without any).
 */
export async function readReviews(
  ctx: AppContext,
  viewer: Viewer,
  streamerId: number,
): Promise<ReviewsAnswer> {
  const db = ctx.db;
  const exists = await db
    .selectFrom('streamers')
    .select('id')
    .where('id', '=', streamerId)
    .executeTakeFirst();
  if (!exists) throw fail('streamer_not_found');
  const reviewer = reviewerOf(viewer);
  const rows = await reviewsOf(db, streamerId);
  const own = rows.find((r) => r.user_id === reviewer);
  if (!own) {
    return { mine: null, count: rows.length, reviews: null };
  }
  const scored = rows.flatMap((r) => (r.item.r === null ? [] : [r.item.r]));
  return {
    mine: own.item,
    count: rows.length,
    reviews: rows.map((r) => r.item),
    median: medianScores(scored),
    spread: spreadOf(scored),
  };
}
