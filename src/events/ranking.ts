import type { LoggedEvent } from './log.ts';
import { sseEvent } from './sse.ts';

/**
 * The ranking's streams (`GET /api/events?ranking=1`, the page's list of streamers) hear
 * `rating` and `live` of every streamer in the Public view: the list follows the site without
 * a stream per row. Not of streamers outside it, which a visitor may not see; staff's rows
 * outside the view follow at the list's next reload.
 */
export const RANKED: ReadonlySet<LoggedEvent['type']> = new Set(['rating', 'live']);

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
    if (!RANKED.has(e.type) || !shown.has(e.streamer_id ?? 0)) continue;
    taken[i] = [...new Set([...(taken[i] ?? []), ...ranking])];
  }
  return null;
}
