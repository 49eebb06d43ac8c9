import { LIMITS, type ModerationAction } from '../../../src/shared/rules.ts';
import { call, client } from './api.ts';

/**
 * The comments of an address that hiding (or showing) will change: those shown (or hidden)
 * now, read in pages as large as an action by ids takes.
 */
export async function changing(guest_tag: string, action: ModerationAction): Promise<number[]> {
  const ids: number[] = [];
  let before: number | undefined;
  for (;;) {
    const query = {
      filter: 'recent' as const,
      guest_tag,
      limit: LIMITS.bulkIds,
      ...(before ? { before } : {}),
    };
    const page = await call(client.GET('/api/moderation/comments', { params: { query } }));
    ids.push(...page.filter((c) => c.hidden === (action === 'show')).map((c) => c.id));
    if (page.length < LIMITS.bulkIds) return ids;
    before = page[page.length - 1]?.id;
  }
}

/**
 * Where the keyboard goes after an action in the queue (docs/decisions.md "Web page"): after
 * one comment's, its row if it stays, else the row now in its place, else the last, else the
 * empty queue's message; after many comments' (a selection, an author, an address, an undo),
 * the status that says what was done.
 */
export function queuePlace(
  queue: HTMLElement | undefined,
  one: number | null,
  at: number,
): HTMLElement | null {
  if (!queue) return null;
  if (one === null) return queue.querySelector<HTMLElement>('[role=status]');
  const rows = [...queue.querySelectorAll<HTMLElement>('.queue > li')];
  return (
    rows.find((row) => row.dataset.id === String(one)) ??
    rows[Math.min(at, rows.length - 1)] ??
    queue.querySelector<HTMLElement>('.queue-empty')
  );
}
