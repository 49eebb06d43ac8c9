import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import { hasOpenReports, openReports, selectComments, toItems } from '../comments/queries.ts';
import { inIds, isSqlite } from '../db/dialect.ts';
import type { CommentsTable, Database, Db } from '../db/schema.ts';
import type { ModerationAction, ReportReason } from '../shared/rules.ts';
import { whyHeld } from './held-for.ts';

export type QueueFilter = 'reported' | 'recent' | 'pending';

/**
 * The moderation queue: comments of every streamer with the streamer's name. `reported`:
 * comments with open reports, most reports first, then newest; `recent`: all, newest first,
 * `before` pages by id. With `guestTag`, only the comments an action by that address takes (the
 * page reads them before it acts, to undo exactly what changed).
 */
export async function moderationQueue(
  db: Db,
  opts: { filter: QueueFilter; limit: number; before: number | null; guestTag: string | null },
) {
  let q = selectComments(db)
    .innerJoin('streamers', 'streamers.id', 'comments.streamer_id')
    .select(['streamers.name as streamer_name']);
  const { guestTag } = opts;
  if (guestTag !== null) q = q.where((eb) => selected(eb, { guest_tag: guestTag }));
  if (opts.filter === 'reported') {
    q = q
      .where(hasOpenReports)
      .orderBy((eb) => openReports(eb), 'desc')
      .orderBy('comments.id', 'desc');
  } else if (opts.filter === 'pending') {
    // Held comments, oldest first (issue 29).
    q = q.where('comments.pending', '=', 1).orderBy('comments.id');
  } else {
    if (opts.before !== null) q = q.where('comments.id', '<', opts.before);
    q = q.orderBy('comments.id', 'desc');
  }
  const rows = await q.limit(opts.limit).execute();
  const reasons = await reportReasons(
    db,
    rows.map((r) => r.id),
  );
  const where = rows.map((r) => ({ streamer_id: r.streamer_id, streamer_name: r.streamer_name }));
  const items = await toItems(db, rows, true);
  const why = await whyHeld(db, items);
  const reach = await addressReach(
    db,
    items.map((item) => item.guest_tag ?? null),
  );
  const banned = await bannedAmong(
    db,
    items.flatMap((item) => (item.user_id === null ? [] : [item.user_id])),
  );
  return items.map((item, i) => ({
    ...item,
    streamer_id: where[i]?.streamer_id ?? 0,
    streamer_name: where[i]?.streamer_name ?? '',
    reports: item.reports ?? 0,
    guest_tag: item.guest_tag ?? null,
    user_banned: item.user_id !== null && banned.has(item.user_id),
    address_comments: item.guest_tag ? (reach.get(item.guest_tag) ?? 0) : null,
    report_reasons: reasons.get(item.id) ?? [],
    held_for: why.get(item.id)?.held_for ?? null,
    held_words: why.get(item.id)?.held_words ?? [],
  }));
}

/**
 * How many guest comments each tag (as staff see it) takes in a bulk action by `guest_tag`:
 * every guest at that address, whatever name they gave (issue 30: the confirmation says so).
 * Counted with the very condition the action uses (`selected`).
 */
async function addressReach(db: Db, tags: (string | null)[]): Promise<Map<string, number>> {
  const reach = new Map<string, number>();
  for (const tag of new Set(tags)) {
    if (!tag) continue;
    const row = await db
      .selectFrom('comments')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where((eb) => selected(eb, { guest_tag: tag }))
      .executeTakeFirst();
    reach.set(tag, Number(row?.n ?? 0));
  }
  return reach;
}

/** Which of these users are banned now. */
async function bannedAmong(db: Db, userIds: number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where(inIds(db, 'id', [...new Set(userIds)]))
    .where('banned', '=', 1)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** The open reports of each comment as staff see them: reason, note, when; newest first, no reporter. */
async function reportReasons(db: Db, ids: number[]) {
  const byComment = new Map<number, { reason: ReportReason; note: string; at: string }[]>();
  if (ids.length === 0) return byComment;
  const rows = await db
    .selectFrom('reports')
    .select(['comment_id', 'reason', 'note', 'created_at'])
    .where('comment_id', 'in', ids)
    .where('closed_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  for (const r of rows) {
    const list = byComment.get(r.comment_id) ?? [];
    list.push({ reason: r.reason, note: r.note, at: r.created_at });
    byComment.set(r.comment_id, list);
  }
  return byComment;
}

/** Which comments a bulk action takes: by ids, by author, or by a guest's address tag. */
export type Selector = { ids: number[] } | { user_id: number } | { guest_tag: string };

type OnComments = ExpressionBuilder<Database & { comments: CommentsTable }, 'comments'>;

function selected(eb: OnComments, selector: Selector): Expression<SqlBool> {
  if ('ids' in selector) return eb('comments.id', 'in', selector.ids);
  if ('user_id' in selector) return eb('comments.user_id', '=', selector.user_id);
  // Staff see the first 10 characters of a tag: a prefix names every guest comment from that address.
  return eb.and([
    eb('comments.user_id', 'is', null),
    eb('comments.guest_tag', 'like', `${selector.guest_tag}%`),
  ]);
}

/**
 * The comments a bulk action would change, taken before it acts (for their notifications and
 * events, and to name the one comment in the audit entry); a dismissal changes the reported ones.
 */
export async function bulkTargets(trx: Db, action: ModerationAction, selector: Selector) {
  // PostgreSQL: their streamers' rows first, kept (`key share`), in one order: a streamer's
  // delete takes its row before its comments, so the two never wait on each other.
  if (!isSqlite(trx)) {
    const streamers = trx
      .selectFrom('comments')
      .select('comments.streamer_id')
      .where((eb) => selected(eb, selector));
    await trx
      .selectFrom('streamers')
      .select('id')
      .where('id', 'in', streamers)
      .orderBy('id')
      .forKeyShare()
      .execute();
  }
  let q = trx
    .selectFrom('comments')
    // The author and streamer name the comment in the audit entry of an action on one.
    .innerJoin('streamers', 'streamers.id', 'comments.streamer_id')
    .select([
      'comments.id',
      'comments.streamer_id',
      'comments.user_id',
      'comments.hidden',
      'comments.pending',
      'comments.author',
      'streamers.name as streamer_name',
    ])
    .where((eb) => selected(eb, selector));
  if (action === 'hide') q = q.where('comments.hidden', '=', 0);
  // A held comment stays unseen when shown: only its approval publishes it (notify.ts).
  if (action === 'show') q = q.where('comments.hidden', '=', 1).where('comments.pending', '=', 0);
  if (action === 'approve') q = q.where('comments.pending', '=', 1).where('comments.hidden', '=', 0);
  if (action === 'dismiss') q = q.where(hasOpenReports);
  // PostgreSQL: the comments' rows locked, in one order, until the commit, so the targets are
  // what the action then changes (a comment deleted or hidden meanwhile by another write is
  // no target: nobody is notified of it, no foreign key fails), and two actions never deadlock.
  if (!isSqlite(trx)) q = q.orderBy('comments.id').forUpdate('comments');
  return q.execute();
}

/**
 * One bulk action, inside the caller's transaction: each statement takes its rows at once, so a
 * comment posted meanwhile is either in the action or untouched, never half done. Answers how
 * many comments changed. Hiding also closes the comments' open reports (they were acted on).
 */
export async function bulkAction(
  trx: Db,
  action: ModerationAction,
  selector: Selector,
  now: string,
): Promise<number> {
  const closeReports = () =>
    trx
      .updateTable('reports')
      .set({ closed_at: now })
      .where('closed_at', 'is', null)
      .where('comment_id', 'in', (eb) =>
        eb
          .selectFrom('comments')
          .select('comments.id')
          .where((e) => selected(e, selector)),
      )
      .execute();
  switch (action) {
    case 'hide': {
      const result = await trx
        .updateTable('comments')
        // A hidden comment is pinned no more (migration 025's check).
        .set({ hidden: 1, hidden_by: 'staff', pinned: 0 })
        .where((eb) => eb.and([selected(eb, selector), eb('comments.hidden', '=', 0)]))
        .executeTakeFirst();
      await closeReports();
      return Number(result.numUpdatedRows);
    }
    case 'show': {
      const result = await trx
        .updateTable('comments')
        .set({ hidden: 0, hidden_by: null })
        .where((eb) => eb.and([selected(eb, selector), eb('comments.hidden', '=', 1)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    }
    case 'delete': {
      const result = await trx
        .deleteFrom('comments')
        .where((eb) => selected(eb, selector))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    }
    case 'approve': {
      // Published with its original created_at; a held account is trusted from then on, and
      // under `first` the guest's address is (hold.ts asks for a published comment).
      const approved = await trx
        .updateTable('comments')
        .set({ pending: 0 })
        .where((eb) => eb.and([selected(eb, selector), eb('comments.pending', '=', 1)]))
        .returning('comments.user_id')
        .execute();
      const users = [...new Set(approved.flatMap((c) => (c.user_id === null ? [] : [c.user_id])))];
      if (users.length > 0) {
        await trx.updateTable('users').set({ held: 0 }).where('id', 'in', users).execute();
      }
      return approved.length;
    }
    case 'dismiss': {
      const reported = await trx
        .selectFrom('comments')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where((eb) => eb.and([selected(eb, selector), hasOpenReports(eb)]))
        .executeTakeFirstOrThrow();
      await closeReports();
      return Number(reported.n);
    }
  }
}
