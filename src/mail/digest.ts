import type { Db } from '../db/schema.ts';
import { inIds } from '../db/dialect.ts';
import { streamerPath } from '../shared/rules.ts';
import { IN_PUBLIC_VIEW } from '../catalogue/public-view.ts';
import { unsubscribeTokens } from './account.ts';
import { type DigestPayload, ITEMS_MAX } from './compose.ts';
import { queueMessages } from './queries.ts';
import { newSeed } from './tokens.ts';

/**
 * The weekly digest's messages (mail/sender.ts queues a batch per look): the week's new
 * ratings, the same for everyone, and each user's own week, read for a batch of users at once.
 */

/** The week's new ratings of the Public view: each streamer once, with its newest total. */
export async function weeksRatings(db: Db, from: string, to: string): Promise<DigestPayload['ratings']> {
  const rows = await db
    .selectFrom('rating_history as h')
    .innerJoin('streamers', 'streamers.id', 'h.streamer_id')
    .select(['h.id', 'h.streamer_id', 'streamers.name', 'h.s', 'h.g', 'h.a', 'h.v', 'h.n', 'h.ns', 'h.o'])
    .where('h.at', '>=', from)
    .where('h.at', '<', to)
    .where(IN_PUBLIC_VIEW)
    .orderBy('h.id', 'desc')
    .execute();
  const seen = new Map<number, DigestPayload['ratings'][number]>();
  for (const r of rows) {
    if (seen.has(r.streamer_id)) continue;
    seen.set(r.streamer_id, {
      streamer: r.name,
      path: streamerPath(r.streamer_id, r.name),
      total: r.s + r.g + r.a + r.v + r.n + r.ns + r.o,
    });
  }
  return [...seen.values()].slice(0, ITEMS_MAX);
}

type Week = Pick<DigestPayload, 'streams' | 'replies'>;

/**
 * A batch of users' weeks, in two statements: the streams of streamers each follows and the
 * replies to each, at most ITEMS_MAX of either per user (a window over the user's rows).
 */
async function weeksOf(db: Db, userIds: number[], from: string, to: string): Promise<Map<number, Week>> {
  const weeks = new Map<number, Week>(userIds.map((id) => [id, { streams: [], replies: [] }]));
  if (userIds.length === 0) return weeks;
  const streams = await db
    .selectFrom((qb) =>
      qb
        .selectFrom('streams')
        .innerJoin('follows', 'follows.streamer_id', 'streams.streamer_id')
        .innerJoin('streamers', 'streamers.id', 'streams.streamer_id')
        .select((eb) => [
          'follows.user_id',
          'streams.streamer_id',
          'streamers.name',
          'streams.started_at',
          'streams.title',
          eb.fn
            .agg<number>('row_number')
            .over((ob) => ob.partitionBy('follows.user_id').orderBy('streams.started_at'))
            .as('nth'),
        ])
        .where(inIds(db, 'follows.user_id', userIds))
        .where('streams.started_at', '>=', from)
        .where('streams.started_at', '<', to)
        .as('w'),
    )
    .selectAll()
    .where('nth', '<=', ITEMS_MAX)
    .orderBy('user_id')
    .orderBy('nth')
    .execute();
  const replies = await db
    .selectFrom((qb) =>
      qb
        .selectFrom('notifications')
        .innerJoin('streamers', 'streamers.id', 'notifications.streamer_id')
        .leftJoin('comments', 'comments.id', 'notifications.comment_id')
        .leftJoin('users as author', 'author.id', 'comments.user_id')
        .select((eb) => [
          'notifications.user_id',
          'notifications.streamer_id',
          'notifications.comment_id',
          'notifications.created_at',
          'streamers.name',
          'comments.author',
          'author.display_name',
          eb.fn
            .agg<number>('row_number')
            .over((ob) => ob.partitionBy('notifications.user_id').orderBy('notifications.id'))
            .as('nth'),
        ])
        .where(inIds(db, 'notifications.user_id', userIds))
        .where('notifications.kind', '=', 'reply')
        .where('notifications.shown', '=', 1)
        .where('notifications.created_at', '>=', from)
        .where('notifications.created_at', '<', to)
        .as('w'),
    )
    .selectAll()
    .where('nth', '<=', ITEMS_MAX)
    .orderBy('user_id')
    .orderBy('nth')
    .execute();
  for (const s of streams) {
    weeks.get(s.user_id)?.streams.push({
      streamer: s.name,
      path: streamerPath(s.streamer_id, s.name),
      at: s.started_at,
      title: s.title,
    });
  }
  for (const r of replies) {
    weeks.get(r.user_id)?.replies.push({
      streamer: r.name,
      path: streamerPath(r.streamer_id, r.name) + (r.comment_id === null ? '' : `#c${r.comment_id}`),
      at: r.created_at,
      actor: r.display_name ?? r.author ?? null,
    });
  }
  return weeks;
}

/** Users a batch of the digest takes in one transaction. */
export const DIGEST_BATCH = 200;

/**
 * The next batch of a slot's digest: the users past `through_user` with the weekly digest and
 * a confirmed address, each queued once (`digest:<slot>`), nothing for an empty week. Answers
 * whether the slot is done.
 */
export async function queueDigestBatch(
  trx: Db,
  key: string,
  slot: { slot: string; from: string; through_user: number },
  ratings: DigestPayload['ratings'],
  now: string,
): Promise<boolean> {
  const users = await trx
    .selectFrom('mail_settings')
    .select(['user_id', 'email'])
    .$narrowType<{ email: string }>()
    .where('user_id', '>', slot.through_user)
    .where('digest', '=', 'weekly')
    .where('email', 'is not', null)
    .orderBy('user_id')
    .limit(DIGEST_BATCH)
    .execute();
  const weeks = await weeksOf(
    trx,
    users.map((u) => u.user_id),
    slot.from,
    slot.slot,
  );
  // Nothing for an empty week; the others' unsubscribe tokens and messages in one statement each.
  const told = users.flatMap((u) => {
    const week = weeks.get(u.user_id);
    if (!week || ratings.length + week.streams.length + week.replies.length === 0) return [];
    return [{ ...u, week, seed: newSeed() }];
  });
  await unsubscribeTokens(trx, key, told, 'digest', now);
  await queueMessages(
    trx,
    told.map((u) => {
      const payload: DigestPayload = {
        from: slot.from,
        to: slot.slot,
        ratings,
        ...u.week,
        unsubscribe: u.seed,
      };
      return {
        user_id: u.user_id,
        kind: 'digest',
        dedupe: `digest:${slot.slot}`,
        recipient: u.email,
        payload,
      };
    }),
    now,
  );
  const done = users.length < DIGEST_BATCH;
  await trx
    .updateTable('mail_digests')
    .set({ through_user: users.at(-1)?.user_id ?? slot.through_user, ...(done ? { finished_at: now } : {}) })
    .where('slot', '=', slot.slot)
    .where('through_user', '=', slot.through_user)
    .execute();
  return done;
}
