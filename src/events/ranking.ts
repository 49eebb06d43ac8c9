import type { LoggedEvent } from './log.ts';
import { sseEvent } from './sse.ts';

/**
 * The ranking's streams (`GET /api/events?ranking=1`, the page's list of streamers) hear
 * `rating` and `live` of every streamer in the Public view, and the `rating` of a streamer that
 * leaves it (its row must go): the list follows the site without a stream per row. Not of
 * streamers that were never in it, which a visitor may not see; staff's rows outside the view
 * follow at the list's next reload.
 */
export const RANKED: ReadonlySet<LoggedEvent['type']> = new Set(['rating', 'live']);

/**
 * Whether a `rating` took its streamer out of the Public view (db/event-log.ts `left`, set by the
 * write, which knew it was in): told to the ranking's streams, which showed its row.
 */
const leftPublicView = (e: LoggedEvent): boolean =>
  e.type === 'rating' && (JSON.parse(e.data) as { left?: boolean }).left === true;

/** An event's fields as a stream sends them: without `left`, which the log keeps for the ranking alone. */
export function sentData(e: LoggedEvent): string {
  if (e.type !== 'rating') return e.data;
  const { left: _, ...data } = JSON.parse(e.data) as Record<string, unknown>;
  return JSON.stringify(data);
}

/**
 * Adds the ranking's streams (taken with the others when the page came) to the page's events
 * they hear; which streamers are in the Public view is asked once per page. When that cannot be
 * asked (the database away), they are not given this page's changes but a `reset` after them,
 * with the page's last id (what the list loads then holds all of it): answered as the bytes and
 * the streams to send them to, else null.
 */
export async function addRanking<S>(
  events: LoggedEvent[],
  taken: (S[] | null)[],
  ranking: S[],
  inPublicView: (streamerIds: number[]) => Promise<ReadonlySet<number>>,
): Promise<{ bytes: Buffer; streams: S[] } | null> {
  if (ranking.length === 0) return null;
  const ids = new Set<number>();
  for (const e of events) if (RANKED.has(e.type) && e.streamer_id !== null) ids.add(e.streamer_id);
  if (ids.size === 0) return null;
  const shown = await inPublicView([...ids]).catch(() => null);
  if (shown === null) return { bytes: sseEvent(events.at(-1)?.id ?? 0, 'reset', '{}'), streams: ranking };
  for (const [i, e] of events.entries()) {
    if (!RANKED.has(e.type) || !(shown.has(e.streamer_id ?? 0) || leftPublicView(e))) continue;
    taken[i] = [...new Set([...(taken[i] ?? []), ...ranking])];
  }
  return null;
}
