import { type SqlBool, sql } from 'kysely';
import type { Db } from '../db/schema.ts';

/**
 * SPEC.md's Public view: the streamers that are evaluated and have a rating. Written once, as a
 * condition on the `streamers` row of a query, and used by everything that asks: the list's
 * views (a column of queries.ts `listStreamers`), whether a rating entered the view (rate.ts,
 * by `findStreamerState`), a streamer's reply (reply.ts) and the rating feed (feeds/queries.ts).
 */
export const IN_PUBLIC_VIEW = sql<SqlBool>`(streamers.evaluated = 1 and exists (select 1 from ratings where ratings.streamer_id = streamers.id))`;

/** The condition's answer as a row carries it: 1 or 0 on SQLite, a boolean on PostgreSQL. */
export const inPublicView = (row: { in_public_view: SqlBool }): boolean => Boolean(row.in_public_view);

/** One streamer's name when it is in the Public view, else undefined: one indexed read, in the caller's transaction. */
export async function publicName(db: Db, streamerId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('streamers')
    .select('streamers.name')
    .where('streamers.id', '=', streamerId)
    .where(IN_PUBLIC_VIEW)
    .executeTakeFirst();
  return row?.name;
}

/** Whether one streamer is in the Public view, read in the caller's transaction. */
export const streamerInPublicView = async (db: Db, streamerId: number): Promise<boolean> =>
  (await publicName(db, streamerId)) !== undefined;
