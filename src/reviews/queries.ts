import type { Db, Scores } from '../db/schema.ts';
import { STAFF_AUTHOR, SCORE_KEYS } from '../shared/rules.ts';
import { scoreSum } from '../shared/rules.ts';

/** The staff reviews' reads and writes (DECISIONS.md "Staff reviews"). */

/** Who reviews: a signed-in staff member's account, or null for the shared password. */
export type Reviewer = number | null;

export interface ReviewInput {
  /** null: an abstention. */
  r: Scores | null;
  note: string | null;
}

/** A review as answers show it. */
export interface ReviewItem {
  user: string;
  r: Scores | null;
  sum: number | null;
  note: string | null;
  abstain: boolean;
  at: string;
}

const byReviewer = (reviewer: Reviewer) =>
  reviewer === null ? ({ op: 'is', value: null } as const) : ({ op: '=', value: reviewer } as const);

/**
 * Saves the reviewer's review or abstention, replacing theirs: one per reviewer and streamer,
 * the database's partial unique indexes (migration 030) meet a race of two.
 */
export async function saveReview(
  db: Db,
  streamerId: number,
  reviewer: Reviewer,
  review: ReviewInput,
  at: string,
): Promise<void> {
  const scores = review.r ?? Object.fromEntries(SCORE_KEYS.map((k) => [k, null]));
  const values = { ...scores, abstain: review.r === null ? 1 : 0, note: review.note, at };
  const insert = db
    .insertInto('staff_reviews')
    .values({ streamer_id: streamerId, user_id: reviewer, ...values });
  await (
    reviewer === null
      ? insert.onConflict((oc) => oc.column('streamer_id').where('user_id', 'is', null).doUpdateSet(values))
      : insert.onConflict((oc) =>
          oc.columns(['streamer_id', 'user_id']).where('user_id', 'is not', null).doUpdateSet(values),
        )
  ).execute();
}

/** A streamer's reviews, oldest first, with the reviewer's name and ids. */
export async function reviewsOf(db: Db, streamerId: number) {
  const rows = await db
    .selectFrom('staff_reviews')
    .leftJoin('users', 'users.id', 'staff_reviews.user_id')
    .select([
      'staff_reviews.id',
      'staff_reviews.user_id',
      'users.display_name',
      'staff_reviews.abstain',
      'staff_reviews.s',
      'staff_reviews.g',
      'staff_reviews.a',
      'staff_reviews.v',
      'staff_reviews.n',
      'staff_reviews.ns',
      'staff_reviews.o',
      'staff_reviews.note',
      'staff_reviews.at',
    ])
    .where('staff_reviews.streamer_id', '=', streamerId)
    .orderBy('staff_reviews.at')
    .orderBy('staff_reviews.id')
    .execute();
  return rows.map((row) => ({ id: row.id, user_id: row.user_id, item: itemOf(row) }));
}

function itemOf(row: {
  user_id: number | null;
  display_name: string | null;
  abstain: number;
  note: string | null;
  at: string;
  s: number | null;
  g: number | null;
  a: number | null;
  v: number | null;
  n: number | null;
  ns: number | null;
  o: number | null;
}): ReviewItem {
  const abstain = row.abstain === 1;
  const r = abstain ? null : (Object.fromEntries(SCORE_KEYS.map((k) => [k, row[k] ?? 0])) as Scores);
  return {
    user: row.user_id === null ? STAFF_AUTHOR : (row.display_name ?? ''),
    r,
    sum: r === null ? null : scoreSum(r),
    note: row.note,
    abstain,
    at: row.at,
  };
}

/** Clears the streamer's reviews (a publish): those read, by id. */
export async function clearReviews(db: Db, ids: readonly number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    await db
      .deleteFrom('staff_reviews')
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
  }
}

/**
 * The reviewer's queue: streamers they have neither reviewed nor abstained on, a re-rating
 * request first, then the fewest reviews, then the oldest published rating (never rated
 * first), then by id; `limit` of them (the route's: at most 100).
 */
export async function reviewQueue(db: Db, reviewer: Reviewer, limit: number) {
  const { op, value } = byReviewer(reviewer);
  const rows = await db
    .selectFrom('streamers')
    .leftJoin('ratings', 'ratings.streamer_id', 'streamers.id')
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('staff_reviews')
          .select(['staff_reviews.streamer_id', (e) => e.fn.countAll<number | string>().as('n')])
          .groupBy('staff_reviews.streamer_id')
          .as('rc'),
      (join) => join.onRef('rc.streamer_id', '=', 'streamers.id'),
    )
    .leftJoin('rerating_requests as rq', (join) =>
      join.onRef('rq.streamer_id', '=', 'streamers.id').on('rq.closed_at', 'is', null),
    )
    .select([
      'streamers.id as streamer_id',
      'streamers.name as streamer_name',
      'rc.n as reviews',
      'ratings.updated_at as rated_at',
      'rq.id as request_id',
    ])
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('staff_reviews as mine')
            .select('mine.id')
            .whereRef('mine.streamer_id', '=', 'streamers.id')
            .where('mine.user_id', op, value),
        ),
      ),
    )
    .orderBy((eb) => eb.case().when('rq.id', 'is', null).then(1).else(0).end())
    .orderBy((eb) => eb.fn.coalesce('rc.n', eb.lit(0)))
    .orderBy((eb) => eb.case().when('ratings.updated_at', 'is', null).then(0).else(1).end())
    .orderBy('ratings.updated_at')
    .orderBy('streamers.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    streamer_id: r.streamer_id,
    streamer_name: r.streamer_name,
    reviews: Number(r.reviews ?? 0),
    rated_at: r.rated_at ?? null,
    requested: r.request_id !== null && r.request_id !== undefined,
  }));
}

/** The streamer's open re-rating request, if any. */
export async function openRequest(db: Db, streamerId: number) {
  return db
    .selectFrom('rerating_requests')
    .select(['id', 'at'])
    .where('streamer_id', '=', streamerId)
    .where('closed_at', 'is', null)
    .executeTakeFirst();
}

export async function addRequest(db: Db, streamerId: number, userId: number, reason: string, at: string) {
  await db
    .insertInto('rerating_requests')
    .values({ streamer_id: streamerId, user_id: userId, reason, at })
    .execute();
}

/** A publish: the open request closed, the time of the publish kept. */
export async function markPublished(db: Db, streamerId: number, at: string): Promise<void> {
  await db
    .updateTable('rerating_requests')
    .set({ closed_at: at })
    .where('streamer_id', '=', streamerId)
    .where('closed_at', 'is', null)
    .execute();
  await db
    .insertInto('review_publishes')
    .values({ streamer_id: streamerId, at })
    .onConflict((oc) => oc.column('streamer_id').doUpdateSet({ at }))
    .execute();
}

/** When the streamer's reviews were last published, or null. */
export async function lastPublished(db: Db, streamerId: number): Promise<string | null> {
  const row = await db
    .selectFrom('review_publishes')
    .select('at')
    .where('streamer_id', '=', streamerId)
    .executeTakeFirst();
  return row?.at ?? null;
}

/** A user's reviews and re-rating requests, for their export. */
export async function reviewsBy(db: Db, userId: number) {
  const reviews = await db
    .selectFrom('staff_reviews')
    .innerJoin('streamers', 'streamers.id', 'staff_reviews.streamer_id')
    .select([
      'staff_reviews.streamer_id',
      'streamers.name as streamer_name',
      'staff_reviews.abstain',
      ...SCORE_KEYS.map((k) => `staff_reviews.${k}` as const),
      'staff_reviews.note',
      'staff_reviews.at',
    ])
    .where('staff_reviews.user_id', '=', userId)
    .orderBy('staff_reviews.id')
    .execute();
  const requests = await db
    .selectFrom('rerating_requests')
    .select(['streamer_id', 'reason', 'at', 'closed_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return {
    reviews: reviews.map(({ abstain, s, g, a, v, n, ns, o, ...rest }) => ({
      ...rest,
      abstain: abstain === 1,
      r: abstain === 1 ? null : { s, g, a, v, n, ns, o },
    })),
    rerating_requests: requests,
  };
}
