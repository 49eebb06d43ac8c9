import type { Comment } from './api.ts';

/** The orders of a streamer's comments (DECISIONS.md "Comments: pinned and ordered"). */
export type Order = 'newest' | 'oldest' | 'top';
export const ORDERS: readonly Order[] = ['newest', 'top', 'oldest'];

/** The top-level comments loaded that are not pinned: what pages count. */
export const unpinned = (list: Comment[]) => list.filter((c) => c.reply_to === null && !c.pinned);

/**
 * Top-level comments in the chosen order, the pinned one first, each with its replies oldest
 * first; `items` come as the service sends them (oldest first, or by likes for `top`), and
 * oldest first shows its first `shown`.
 */
export function threadsOf(items: Comment[], order: Order, shown: number) {
  const replies = new Map<number, Comment[]>();
  const tops: Comment[] = [];
  for (const c of items) {
    if (c.reply_to === null) tops.push(c);
    else replies.set(c.reply_to, [...(replies.get(c.reply_to) ?? []), c]);
  }
  const rest = tops.filter((c) => !c.pinned);
  const ordered = order === 'newest' ? rest.reverse() : order === 'top' ? rest : rest.slice(0, shown);
  return [...tops.filter((c) => c.pinned), ...ordered].map((top) => ({
    top,
    replies: replies.get(top.id) ?? [],
  }));
}

/** The comments this browser reported (kept so that it is not offered again), the newest 200. */
export function readReported(): number[] {
  try {
    const ids: unknown = JSON.parse(localStorage.getItem('reportedComments') ?? '[]');
    return Array.isArray(ids) ? ids.filter((x): x is number => typeof x === 'number') : [];
  } catch {
    return [];
  }
}

export function keepReported(reported: number[], id: number): number[] {
  const kept = [...reported.filter((x) => x !== id), id].slice(-200);
  localStorage.setItem('reportedComments', JSON.stringify(kept));
  return kept;
}
