import { DAY } from '../lib/clock.ts';
import { singleLine } from '../lib/input.ts';
import { LIMITS } from '../shared/rules.ts';
import { SCHEDULE } from '../shared/schedules.ts';
import type { ReadSchedule } from '../schedules/queries.ts';
import { type Segment, uidOf } from '../schedules/rules.ts';
import type { ProviderClient } from './client.ts';
import { member, SyncError, textOf, timestampOf } from './http.ts';

/** Pages of 25 segments read at most per streamer (a point each; 100 segments cover 15 days). */
const MAX_PAGES = 4;
/** Kept ahead: the 14 days shown, and a day more, as a read may be an hour old. */
const KEPT_DAYS = SCHEDULE.shownDays + 1;

/**
 * One broadcaster's schedule from Twitch (PROVIDERS.md "schedule"): `GET /schedule` with
 * `first=25`, following `pagination.cursor` while the pages reach into the days kept; a 404
 * means the broadcaster has no schedule (null segments). A segment with `canceled_until` is
 * canceled; `category` and `vacation` may be null. Other failures throw a SyncError.
 */
export async function readTwitchSchedule(
  client: ProviderClient,
  broadcasterId: string,
  streamerId: number,
  now: Date,
): Promise<ReadSchedule> {
  const from = now.getTime();
  const until = from + KEPT_DAYS * DAY;
  const byStart = new Map<string, Segment>();
  let vacation: ReadSchedule['vacation'] = null;
  let after = '';
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = new URLSearchParams({ broadcaster_id: broadcasterId, first: '25' });
    if (after !== '') query.set('after', after);
    let json: Record<string, unknown>;
    try {
      json = (await client.get(`/schedule?${query}`)).json;
    } catch (err) {
      if (page === 0 && err instanceof SyncError && err.status === 404) {
        return { streamerId, segments: null, vacation: null };
      }
      throw err;
    }
    const data = member(json, 'data');
    if (!data || typeof data !== 'object')
      throw new SyncError('answered JSON without a "data" object', 'wrong_data');
    if (page === 0) vacation = vacationOf(member(data, 'vacation'));
    const segments = member(data, 'segments') ?? [];
    if (!Array.isArray(segments))
      throw new SyncError('answered a schedule whose segments are not a list', 'wrong_data');
    let last = -Infinity;
    for (const item of segments) {
      const segment = segmentOf(item);
      if (segment === null) continue;
      const start = new Date(segment.start).getTime();
      last = Math.max(last, start);
      if (new Date(segment.end).getTime() <= from || start >= until || byStart.has(segment.start)) continue;
      byStart.set(segment.start, segment);
    }
    after = textOf(member(member(json, 'pagination'), 'cursor'));
    if (after === '' || segments.length === 0 || last >= until) break;
  }
  const kept = [...byStart.values()].sort((a, b) => (a.start < b.start ? -1 : 1));
  return { streamerId, segments: kept, vacation };
}

function segmentOf(item: unknown): Segment | null {
  const id = textOf(member(item, 'id'));
  const start = timestampOf(member(item, 'start_time'));
  const end = timestampOf(member(item, 'end_time'));
  if (id === '' || start === null || end === null || start >= end) return null;
  const canceled = member(item, 'canceled_until');
  return {
    start,
    end,
    uid: uidOf('twitch', id),
    title: singleLine(member(item, 'title'), SCHEDULE.titleMax),
    game: singleLine(member(member(item, 'category'), 'name'), LIMITS.game),
    canceled: canceled !== null && canceled !== undefined && canceled !== '',
  };
}

function vacationOf(v: unknown): ReadSchedule['vacation'] {
  const start = timestampOf(member(v, 'start_time'));
  const end = timestampOf(member(v, 'end_time'));
  return start !== null && end !== null && start < end ? { start, end } : null;
}
