import type { Db, RaterGroup, Rating, Scores, Streamer, StreamersTable } from '../db/schema.ts';
import { type Insertable, sql, type Updateable } from 'kysely';
import { foldCase } from '../shared/rules.ts';
import { foldName } from '../lib/names.ts';
import { IN_PUBLIC_VIEW, inPublicView } from '../catalogue/public-view.ts';
import { HISTOGRAM_COLUMNS } from '../votes/audience.ts';

/** A streamer with its rating and team, as every list view starts from. */
export type StreamerListRow = Omit<
  Streamer,
  'created_at' | 'sync_misses' | 'guest_tag' | 'suggested_by' | 'name_fold'
> & {
  /** The signed-in account that suggested it, or null. */
  suggested_by: { id: number; display_name: string } | null;
  /** In SPEC.md's Public view (public-view.ts). */
  in_public_view: boolean;
  scores: Scores;
  reward: Rating['reward'];
  notes: Rating['notes'];
  /** When the rating was last written (DECISIONS.md "Staff reviews"), or null. */
  rated_at: string | null;
  team_id: RaterGroup['id'] | null;
  team_name: RaterGroup['name'] | null;
  /** Visible comments. */
  comment_count: number;
  /** The audience's votes: their sum and count. */
  audience_sum: number;
  audience_votes: number;
  /** The votes for 1 to 10. */
  audience_histogram: number[];
  /** Users who follow it (DECISIONS.md "Fifth wave" → "Following"). */
  followers: number;
  /** The kept last-30-days figures (history/stats.ts), null without streams. */
  stats: {
    streams: number;
    seconds: number;
    samples: number;
    viewer_sum: number;
    peak_viewers: number;
    top_game: string | null;
  } | null;
};

const RATING_COLUMNS = [
  'ratings.s',
  'ratings.g',
  'ratings.a',
  'ratings.v',
  'ratings.n',
  'ratings.ns',
  'ratings.o',
  'ratings.reward',
  'ratings.notes',
] as const;

/** The query of listStreamers: every streamer with its rating, team and counts. */
export const listQuery = (db: Db) =>
  db
    .selectFrom('streamers')
    .leftJoin('ratings', 'ratings.streamer_id', 'streamers.id')
    .leftJoin('rater_groups', 'rater_groups.streamer_id', 'streamers.id')
    .leftJoin('users as suggester', 'suggester.id', 'streamers.suggested_by')
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('comments')
          .select(['comments.streamer_id', (e) => e.fn.countAll<number | string>().as('n')])
          // Constants, not parameters, so that PostgreSQL's kept plan may read comments_counted_idx.
          .where('comments.hidden', '=', sql.lit(0))
          .where('comments.pending', '=', sql.lit(0))
          .groupBy('comments.streamer_id')
          .as('cc'),
      (join) => join.onRef('cc.streamer_id', '=', 'streamers.id'),
    )
    // Less the replies in a hidden thread, which only staff see (migration 043: few rows read).
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('comments as parent')
          .innerJoin('comments as reply', 'reply.reply_to', 'parent.id')
          .select(['parent.streamer_id', (e) => e.fn.countAll<number | string>().as('n')])
          .where('parent.hidden', '=', sql.lit(1))
          .where('reply.hidden', '=', sql.lit(0))
          .where('reply.pending', '=', sql.lit(0))
          .groupBy('parent.streamer_id')
          .as('hr'),
      (join) => join.onRef('hr.streamer_id', '=', 'streamers.id'),
    )
    // The votes as the database counts them while they change (migration 035), not summed here.
    .leftJoin('vote_tallies as av', 'av.streamer_id', 'streamers.id')
    // Followers counted for every streamer at once, in the query that makes the items.
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('follows')
          .select(['follows.streamer_id', (e) => e.fn.countAll<number | string>().as('n')])
          .groupBy('follows.streamer_id')
          .as('fl'),
      (join) => join.onRef('fl.streamer_id', '=', 'streamers.id'),
    )
    .leftJoin('stream_stats as st', 'st.streamer_id', 'streamers.id')
    .select([
      'streamers.id',
      'streamers.name',
      'streamers.name_key',
      'streamers.platform',
      'streamers.kick_name',
      'streamers.provider_a',
      'streamers.status',
      'streamers.game',
      'streamers.title',
      'streamers.avatar',
      'streamers.viewers',
      'streamers.live_since',
      'streamers.synced_at',
      'streamers.evaluated',
      'streamers.community_locked',
      'streamers.added_by',
      'streamers.submitter',
      'streamers.account_id',
      'streamers.account_channel',
      'suggester.id as suggester_id',
      'suggester.display_name as suggester_name',
      IN_PUBLIC_VIEW.as('in_public_view'),
      ...RATING_COLUMNS,
      'ratings.updated_at as rated_at',
      'rater_groups.id as team_id',
      'rater_groups.name as team_name',
      'cc.n as comment_count',
      'hr.n as hidden_replies',
      'av.score_sum as audience_sum',
      'av.vote_count as audience_votes',
      ...HISTOGRAM_COLUMNS.map((h) => `av.${h}` as const),
      'fl.n as followers',
      'st.streams as st_streams',
      'st.seconds as st_seconds',
      'st.samples as st_samples',
      'st.viewer_sum as st_viewer_sum',
      'st.peak_viewers as st_peak',
      'st.top_game as st_top_game',
    ]);

/** Every streamer with its rating and team, in one query. */
export async function listStreamers(db: Db): Promise<StreamerListRow[]> {
  const rows = await listQuery(db).execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    name_key: r.name_key,
    platform: r.platform,
    kick_name: r.kick_name,
    provider_a: r.provider_a,
    status: r.status,
    game: r.game,
    title: r.title,
    avatar: r.avatar,
    viewers: r.viewers === null ? null : Number(r.viewers),
    live_since: r.live_since,
    synced_at: r.synced_at,
    evaluated: r.evaluated,
    community_locked: r.community_locked,
    added_by: r.added_by,
    submitter: r.submitter,
    account_id: r.account_id,
    account_channel: r.account_channel,
    suggested_by:
      r.suggester_id === null || r.suggester_id === undefined
        ? null
        : { id: r.suggester_id, display_name: r.suggester_name ?? '' },
    in_public_view: inPublicView(r),
    scores: {
      s: r.s ?? 0,
      g: r.g ?? 0,
      a: r.a ?? 0,
      v: r.v ?? 0,
      n: r.n ?? 0,
      ns: r.ns ?? 0,
      o: r.o ?? 0,
    },
    reward: r.reward ?? 0,
    notes: r.notes ?? null,
    rated_at: r.rated_at ?? null,
    team_id: r.team_id ?? null,
    team_name: r.team_name ?? null,
    comment_count: Number(r.comment_count ?? 0) - Number(r.hidden_replies ?? 0),
    audience_sum: Number(r.audience_sum ?? 0),
    audience_votes: Number(r.audience_votes ?? 0),
    audience_histogram: HISTOGRAM_COLUMNS.map((h) => Number(r[h] ?? 0)),
    followers: Number(r.followers ?? 0),
    stats:
      r.st_streams === null
        ? null
        : {
            streams: Number(r.st_streams),
            seconds: Number(r.st_seconds),
            samples: Number(r.st_samples),
            viewer_sum: Number(r.st_viewer_sum),
            peak_viewers: Number(r.st_peak),
            top_game: r.st_top_game ?? null,
          },
  }));
}

export type NewStreamer = Pick<
  Insertable<StreamersTable>,
  | 'name'
  | 'platform'
  | 'kick_name'
  | 'provider_a'
  | 'added_by'
  | 'submitter'
  | 'created_at'
  | 'guest_tag'
  | 'suggested_by'
>;

export async function insertStreamer(db: Db, s: NewStreamer): Promise<number> {
  const row = await db
    .insertInto('streamers')
    .values({
      ...s,
      ...nameColumns(s.name),
      status: 'offline',
      game: '',
      title: '',
      evaluated: 0,
      community_locked: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Case-insensitive identity of a streamer name (unique in the database). */
export const nameKey = foldCase;

/** What a name decides: `name_key`, and `name_fold` (lib/names.ts; unique, null for no letters). */
const nameColumns = (name: string) => ({ name_key: nameKey(name), name_fold: foldName(name) || null });

export type StreamerUpdate = Pick<
  Updateable<StreamersTable>,
  | 'evaluated'
  | 'name'
  | 'platform'
  | 'kick_name'
  | 'provider_a'
  | 'status'
  | 'game'
  | 'title'
  | 'viewers'
  | 'live_since'
>;

export async function updateStreamer(db: Db, id: number, update: StreamerUpdate): Promise<void> {
  const changes = update.name === undefined ? update : { ...update, ...nameColumns(update.name) };
  await db.updateTable('streamers').set(changes).where('id', '=', id).execute();
}

export async function setCommunityLock(db: Db, id: number, locked: boolean): Promise<boolean> {
  const result = await db
    .updateTable('streamers')
    .set({ community_locked: locked ? 1 : 0 })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Deletes the streamer; its rating, comments and community ratings go with it and its team
 * is unlinked (foreign keys with ON DELETE CASCADE / SET NULL).
 */
export async function deleteStreamer(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('streamers').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A streamer with its stored rating, for the audit log's before/after. */
export async function findStreamerState(db: Db, id: number) {
  return db
    .selectFrom('streamers')
    .leftJoin('ratings', 'ratings.streamer_id', 'streamers.id')
    .select([
      'streamers.name',
      'streamers.kick_name',
      'streamers.provider_a',
      'streamers.status',
      'streamers.viewers',
      'streamers.game',
      'streamers.title',
      'streamers.community_locked',
      'streamers.evaluated',
      IN_PUBLIC_VIEW.as('in_public_view'),
      ...RATING_COLUMNS,
    ])
    .where('streamers.id', '=', id)
    .executeTakeFirst();
}
