import type { LoggedEvent } from './log.ts';
import { sseEvent } from './sse.ts';

/**
 * The ranking's streams (`GET /api/events?ranking=1`, the page's list of streamers) hear
 * `rating` and `live` of every streamer in the Public view, and the `rating` of a streamer that
 * leaves it (its row must go): the list follows the site without a stream per row. Not of
 * streamers that were never in it, which a visitor may not see; a signed-in staff member's (or a
 * team member's) also hear those outside it that they may see (their list shows them).
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

/** Which of these streamers someone may see: the Public view, or a staff stream's own (events/routes.ts). */
export type Sight = (streamerIds: number[]) => Promise<ReadonlySet<number>>;

/** Whether an event is a ranked one of a streamer outside the Public view that a stream sees. */
const inSight = (e: LoggedEvent, outside: ReadonlySet<number>, seen: ReadonlySet<number>) =>
  RANKED.has(e.type) && outside.has(e.streamer_id ?? 0) && seen.has(e.streamer_id ?? 0);

/** A `reset` after a page (its last id: what the list loads then holds all of it) to these streams. */
const resetAfter = <S>(events: LoggedEvent[], streams: S[]) => ({
  bytes: sseEvent(events.at(-1)?.id ?? 0, 'reset', '{}'),
  streams,
});

/**
 * Adds the ranking's streams (taken with the others when the page came) to the page's events
 * they hear; which streamers are in the Public view is asked once per page, and a staff stream's
 * sight of the others once per page that has any. When that cannot be asked (the database away),
 * the streams it was asked for are not given these changes but a `reset` after the page:
 * answered as the bytes and the streams to send them to, else null.
 */
export async function addRanking<S extends { sees: Sight | null }>(
  events: LoggedEvent[],
  taken: (S[] | null)[],
  ranking: S[],
  inPublicView: Sight,
): Promise<{ bytes: Buffer; streams: S[] } | null> {
  if (ranking.length === 0) return null;
  const ids = new Set<number>();
  for (const e of events) if (RANKED.has(e.type) && e.streamer_id !== null) ids.add(e.streamer_id);
  if (ids.size === 0) return null;
  const shown = await inPublicView([...ids]).catch(() => null);
  if (shown === null) return resetAfter(events, ranking);
  const hear = (i: number, streams: S[]) => {
    taken[i] = [...new Set([...(taken[i] ?? []), ...streams])];
  };
  const outside = new Set<number>();
  for (const [i, e] of events.entries()) {
    if (!RANKED.has(e.type)) continue;
    if (shown.has(e.streamer_id ?? 0) || leftPublicView(e)) hear(i, ranking);
    else outside.add(e.streamer_id ?? 0);
  }
  // Staff (and a team's members) see more: each of their streams asks its own sight.
  const unknown: S[] = [];
  for (const s of outside.size > 0 ? ranking : []) {
    if (!s.sees) continue;
    const seen = await s.sees([...outside]).catch(() => null);
    if (seen === null) unknown.push(s);
    else for (const [i, e] of events.entries()) if (inSight(e, outside, seen)) hear(i, [s]);
  }
  return unknown.length > 0 ? resetAfter(events, unknown) : null;
}
