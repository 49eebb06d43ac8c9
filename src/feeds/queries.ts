import { sql } from 'kysely';
import type { Db } from '../db/schema.ts';
import { isPublic } from '../comments/queries.ts';
import { IN_PUBLIC_VIEW } from '../catalogue/public-view.ts';

/** Entries a feed holds (DECISIONS.md "Feeds"). */
export const FEED_ENTRIES = 50;

const SUM = sql<number>`s + g + a + v + n + ns + o`;

/**
 * The newest rating events: a history row whose total is above zero and differs from the
 * streamer's row before it (it entered the Public view, or its total changed), of streamers
 * in the Public view now; newest first.
 */
export async function ratingEvents(db: Db) {
  const history = db
    .selectFrom('rating_history')
    .select([
      'id',
      'streamer_id',
      'at',
      SUM.as('sum'),
      sql<number | null>`lag(${SUM}) over (partition by streamer_id order by id)`.as('before'),
    ]);
  return db
    .selectFrom(history.as('h'))
    .innerJoin('streamers', 'streamers.id', 'h.streamer_id')
    .select(['h.id', 'h.streamer_id', 'h.at', 'h.sum', 'streamers.name'])
    .where(IN_PUBLIC_VIEW)
    .where('h.sum', '>', 0)
    .where((eb) => eb.or([eb('h.before', 'is', null), eb('h.before', '<>', eb.ref('h.sum'))]))
    .orderBy('h.id', 'desc')
    .limit(FEED_ENTRIES)
    .execute();
}

/** A streamer's newest public comments (comments/queries.ts `isPublic`), newest first. */
export async function feedComments(db: Db, streamerId: number) {
  return db
    .selectFrom('comments')
    .leftJoin('users', 'users.id', 'comments.user_id')
    .select([
      'comments.id',
      'comments.author',
      'comments.body',
      'comments.created_at',
      'comments.edited_at',
      'users.display_name',
    ])
    .where('comments.streamer_id', '=', streamerId)
    .where(isPublic)
    .orderBy('comments.id', 'desc')
    .limit(FEED_ENTRIES)
    .execute();
}
