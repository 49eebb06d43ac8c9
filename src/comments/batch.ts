import { CompiledQuery, type Expression, sql } from 'kysely';
import type pg from 'pg';
import { CONTENT_CHANNEL, CONTENT_ONLY } from '../db/changes.ts';
import type { DbContext } from '../db/context.ts';
import { EVENTS_CHANNEL } from '../events/bus.ts';
import { NOTIFICATION_LIMITS } from '../shared/notifications.ts';
import { GUEST_HOLDS } from '../shared/rules.ts';
import type { Db } from '../db/schema.ts';
import { BatchWriter } from '../db/transaction.ts';
import type { NewComment } from './queries.ts';
import { type CommentRule, type CommentValue, DB_RULES } from './rules.ts';

/**
 * A top-level comment for PostgreSQL's grouped insert: every check that needs no database
 * passed (rules.ts `draftOf`); whether its author is a guest, and a guest's folded name still
 * to compare with the users' names.
 */
export interface GroupedComment extends NewComment {
  guest: boolean;
  name_fold: string | null;
  /** The logins its body mentions, folded, in order, space-separated (shared/notifications.ts). */
  mentions?: string;
  /** Where the guest's burst of posts starts (guests/challenge.ts), null with rate limits off. */
  burst_since: string | null;
}

/** The row's columns, for the rules' conditions. */
const ROW: Record<CommentValue, Expression<unknown>> = {
  streamerId: sql.ref('v.streamer_id'),
  guestTag: sql.ref('v.guest_tag'),
  createdAt: sql.ref('v.created_at'),
  nameFold: sql.ref('v.name_fold'),
  burstSince: sql.ref('v.burst_since'),
};

const whom = (rule: CommentRule) =>
  rule.to === 'all'
    ? sql`true`
    : rule.to === 'guests'
      ? sql`v.guest`
      : sql`(v.guest and v.name_fold is not null)`;

/** The comments to insert, as parameter arrays: one per column, in this order. */
const COLUMNS = [
  ['streamer_id', 'int'],
  ['user_id', 'int'],
  ['author', 'text'],
  ['body', 'text'],
  ['is_admin', 'int'],
  ['created_at', 'text'],
  ['guest_tag', 'text'],
  ['guest', 'bool'],
  ['name_fold', 'text'],
  ['mentions', 'text'],
  ['burst_since', 'text'],
] as const;

/**
 * ONE statement for a group of comments, every rule of rules.ts `DB_RULES` in its WHERE (the
 * rows that break one are left out), with the NOTIFY that tells other instances (db/changes.ts).
 * Built once from the rules, at first use. A top-level comment notifies whom it mentions, as
 * notifications/queries.ts `mentionRecipients` chooses them (the first few mentioned, in order,
 * never the author; test/notifications.test.ts runs both), and publishes its live events
 * (events/bus.ts) in the same statement.
 */
let statement: string | undefined;
function groupStatement(db: Db): string {
  if (statement) return statement;
  const arrays = sql.join(COLUMNS.map(([, type], i) => sql.raw(`$${i + 1}::${type}[]`)));
  const names = sql.raw(COLUMNS.map(([name]) => name).join(', '));
  const kept = sql.join(
    DB_RULES.map((rule) => sql`not (${whom(rule)} and ${rule.refuses(ROW)})`),
    sql` and `,
  );
  const inserted = 'id, streamer_id, user_id, author, body, is_admin, created_at, guest_tag';
  // Any `guest_hold` but the first word (`none`) may hold a guest's comment: post.ts decides.
  const guestsHeld = sql`coalesce((select value from settings where key = 'guest_hold'), '') in (${sql.join(
    GUEST_HOLDS.slice(1).map((word) => sql.lit(word)),
  )})`;
  statement = sql`
with v as (
  select nextval(pg_get_serial_sequence('comments', 'id'))::int as id, v.*
  from unnest(${arrays}) with ordinality as v(${names}, n)
  where ${kept} and not (v.guest and ${guestsHeld})
), ins as (
  insert into comments (${sql.raw(inserted)}) select ${sql.raw(inserted)} from v
), m as (
  insert into notifications (user_id, kind, streamer_id, comment_id, actor_user_id, created_at)
  select u.id, 'mention', v.streamer_id, v.id, v.user_id, v.created_at
  from v cross join lateral (
    select u.id from unnest(string_to_array(v.mentions, ' ')) with ordinality as t(login, k)
    join users u on u.login_key = t.login
    where u.id is distinct from v.user_id
    order by t.k, u.id limit ${sql.lit(NOTIFICATION_LIMITS.mentions)}
  ) u
  on conflict do nothing
  returning user_id
), e as (
  select count(pg_notify(${sql.lit(`${EVENTS_CHANNEL}:`)} || current_schema(), json_build_object('type', 'notification', 'user_id', user_id)::text)) as sent
  from (select distinct user_id from m) r
)
select n::int as n, id, pg_notify(${sql.lit(CONTENT_CHANNEL)}, ${sql.lit(CONTENT_ONLY)}) as notified,
  pg_notify(${sql.lit(`${EVENTS_CHANNEL}:`)} || current_schema(), json_build_object('type', 'comment', 'id', id, 'streamer_id', streamer_id)::text) as told
from v cross join e`.compile(db).sql;
  return statement;
}

/**
 * PostgreSQL: a group of top-level comments written in one statement (one round trip, one
 * commit); answers each comment's id, or null where a rule refused it: the post then runs the
 * rules one by one to give its error (post.ts).
 */
export async function insertCommentGroup(
  db: Db,
  rows: GroupedComment[],
  /** The pool to run it on as a prepared statement (parsed and planned once per connection). */
  pool?: pg.Pool,
): Promise<(number | null)[]> {
  const parameters = COLUMNS.map(([name]) => rows.map((r) => r[name] ?? null));
  const text = groupStatement(db);
  const result = pool
    ? await pool.query<{ n: number; id: number }>({ name: PREPARED, text, values: parameters })
    : await db.executeQuery<{ n: number; id: number }>(CompiledQuery.raw(text, parameters));
  const ids: (number | null)[] = rows.map(() => null);
  for (const row of result.rows) ids[row.n - 1] = row.id;
  return ids;
}

/**
 * Groups written at once: while one group's commit waits for its WAL flush, the next is
 * executed on a second connection (docs/decisions.md "Comment posting on PostgreSQL").
 */
export const GROUPS_IN_FLIGHT = 2;

/** The grouped insert's name as a prepared statement on each connection of the pool. */
const PREPARED = 'comment_group';

declare module 'fastify' {
  interface FastifyInstance {
    /** PostgreSQL's group commit of top-level comments (null on SQLite, whose writes all group). */
    commentWriter: BatchWriter<GroupedComment, number | null> | null;
  }
}

/** PostgreSQL's group commit of top-level comments (null on SQLite, whose writes all group). */
export function commentWriter(database: DbContext): BatchWriter<GroupedComment, number | null> | null {
  return database.kind === 'postgres'
    ? new BatchWriter(
        database,
        (db, rows) => insertCommentGroup(db, rows, database.pool),
        'content',
        500,
        GROUPS_IN_FLIGHT,
      )
    : null;
}
