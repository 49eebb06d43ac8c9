import { type Answer, jsonAnswer } from '../cache/answer.ts';
import type { AppContext } from '../context.ts';
import { fail } from '../errors.ts';
import { parseId } from '../lib/input.ts';
import { pageLimit } from '../lib/schemas.ts';
import { COMMENT_PAGES } from '../shared/rules.ts';
import { streamerExists } from '../catalogue/exists.ts';
import type { Db } from '../db/schema.ts';
import { type CommentRow, isPublic, selectComments, toItems } from './queries.ts';
import type { CommentItem } from './schemas.ts';

/**
 * A page of top-level comments (DECISIONS.md "Comments: pinned and ordered"): the newest `limit`
 * with an id below `before`, or by likes (then newest) from `offset`. The pinned comment is not
 * one of them: it comes first, on the first page (no `before`, offset 0) only.
 */
export type Page =
  { order: 'newest'; limit: number; before: number | null } | { order: 'top'; limit: number; offset: number };

export interface ListOptions {
  /** Administrators and moderators also get hidden comments, open reports and guest tags. */
  withHidden: boolean;
  page?: Page;
}

/**
 * A streamer's comments in ascending order (SPEC.md), or one page of them. Threads are one
 * level deep: a page counts top-level comments, and their replies come with them. Visitors see
 * no hidden comment, nor the replies of one. The pinned comment's thread comes first.
 */
export async function listComments(db: Db, streamerId: number, opts: ListOptions): Promise<CommentItem[]> {
  let q = selectComments(db).where('comments.streamer_id', '=', streamerId);
  if (!opts.withHidden) q = q.where(isPublic);
  const { page } = opts;
  if (!page) {
    const rows = await q.orderBy('comments.created_at').orderBy('comments.id').execute();
    return toItems(db, pinnedFirst(rows), opts.withHidden);
  }
  const first = page.order === 'newest' ? page.before === null : page.offset === 0;
  const unpinned = q.where('comments.reply_to', 'is', null).where('comments.pinned', '=', 0);
  const top = await (
    page.order === 'newest'
      ? (page.before === null ? unpinned : unpinned.where('comments.id', '<', page.before))
          .orderBy('comments.id', 'desc')
          .limit(page.limit)
      : unpinned.orderBy('likes', 'desc').orderBy('comments.id', 'desc').limit(page.limit).offset(page.offset)
  ).execute();
  const pinned = first
    ? await q.where('comments.reply_to', 'is', null).where('comments.pinned', '=', 1).execute()
    : [];
  const tops = [...pinned, ...top];
  const replies =
    tops.length === 0
      ? []
      : await q
          .where(
            'comments.reply_to',
            'in',
            tops.map((c) => c.id),
          )
          .orderBy('comments.id')
          .execute();
  if (page.order === 'newest') {
    return toItems(db, pinnedFirst([...tops, ...replies].sort((a, b) => a.id - b.id)), opts.withHidden);
  }
  // By likes: each top-level comment in its rank, followed by its replies, oldest first.
  const repliesTo = new Map<number | null, CommentRow[]>();
  for (const r of replies) repliesTo.set(r.reply_to, [...(repliesTo.get(r.reply_to) ?? []), r]);
  return toItems(
    db,
    tops.flatMap((c) => [c, ...(repliesTo.get(c.id) ?? [])]),
    opts.withHidden,
  );
}

/** The pinned comment and its replies moved to the front, the other rows in their order. */
function pinnedFirst(rows: CommentRow[]): CommentRow[] {
  const pin = rows.find((r) => r.pinned === 1)?.id;
  if (pin === undefined) return rows;
  const inThread = (r: CommentRow) => r.id === pin || r.reply_to === pin;
  return [...rows.filter(inThread), ...rows.filter((r) => !inThread(r))];
}

/** What the list's query asks for (its schema has refused an `order`, `limit` or `offset` out of range). */
export interface ListQuery {
  limit?: string;
  before?: unknown;
  order?: string;
  offset?: string;
}

/**
 * The page a query asks for (DECISIONS.md "Comments", "Comments: pinned and ordered"): none for
 * the whole list; `order=top` always pages (`before` is not read), `newest` with `limit`.
 */
export function pageOf(query: ListQuery): Page | undefined {
  if (query.order === 'top') {
    return {
      order: 'top',
      limit: pageLimit(query.limit, COMMENT_PAGES.topLimit),
      offset: Number(query.offset ?? 0),
    };
  }
  if (query.limit === undefined) return undefined;
  return { order: 'newest', limit: pageLimit(query.limit, 0), before: parseId(query.before) };
}

const pageKey = (page: Page | undefined): string =>
  page === undefined
    ? '-'
    : page.order === 'newest'
      ? `${page.limit}:${page.before}`
      : `top:${page.limit}:${page.offset}`;

/**
 * A streamer's comments, whole or one page, as staff or as everyone else sees them: made once
 * per change of the content and kept (cache/answers.ts), as bytes only (the items of a busy
 * streamer are tens of thousands of objects).
 */
export function commentList(
  ctx: AppContext,
  streamerId: number,
  staff: boolean,
  query: ListQuery,
): Promise<Answer> {
  const page = pageOf(query);
  const key = `comments:${streamerId}:${staff ? 'all' : 'visible'}:${pageKey(page)}`;
  return ctx.answers.get(key, async (version) => {
    if (!(await streamerExists(ctx.db, streamerId))) throw fail('streamer_not_found');
    return jsonAnswer(await listComments(ctx.db, streamerId, { withHidden: staff, page }), version);
  });
}
