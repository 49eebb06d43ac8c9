import { createHash } from 'node:crypto';
import { DAY, HOUR } from '../lib/clock.ts';

/**
 * The development stand-in's Twitch schedules (DEV_PROVIDERS=true; PROVIDERS.md "schedule"), so
 * that a newcomer sees next streams, the Upcoming page and the calendars without an account:
 * most broadcasters stream on three weekdays a week at a fixed evening hour (UTC), some have no
 * schedule (404), and one in seven has its next stream canceled. Derived from the broadcaster
 * id and the time, like the stand-in's live status (dev-live.ts).
 */

const GAMES = ['Just Chatting', 'Elden Ring', 'Chess', 'Music', 'F1 25', 'Minecraft', 'Art', 'Retro'];
const TITLES = ['Evening stream', 'Ranked grind', 'Community night', 'Speedrun practice', 'Q&A and chill'];
/** Weeks listed from the current one: past the 15 days live sync keeps. */
const WEEKS = 3;
/** Twitch's page size: `first` 1 to 25, 20 when absent. */
const FIRST_MAX = 25;
const FIRST_DEFAULT = 20;

const hash = (s: string) => parseInt(createHash('sha256').update(s).digest('hex').slice(0, 8), 16);

export interface DevSegment {
  id: string;
  start_time: string;
  end_time: string;
  title: string;
  canceled_until: string | null;
  category: { id: string; name: string } | null;
  is_recurring: boolean;
}

/** A broadcaster's segments that have not ended at `now`, earliest first; null: no schedule. */
export function devSegments(broadcasterId: string, now: number): DevSegment[] | null {
  const h = hash(broadcasterId);
  if (h % 5 === 0) return null;
  const days = [h % 7, (h >> 3) % 7, (h >> 6) % 7].filter((d, i, all) => all.indexOf(d) === i);
  const hour = 16 + ((h >> 9) % 6);
  const hours = 2 + ((h >> 12) % 3);
  const game = GAMES[(h >> 4) % GAMES.length] ?? 'Just Chatting';
  const title = TITLES[(h >> 7) % TITLES.length] ?? '';
  // From the start of this week (Monday 00:00 UTC; 1970-01-01 was a Thursday).
  const monday = Math.floor((now + 3 * DAY) / (7 * DAY)) * 7 * DAY - 3 * DAY;
  const segments: DevSegment[] = [];
  for (let week = 0; week < WEEKS; week++) {
    for (const day of [...days].sort((a, b) => a - b)) {
      const start = monday + (week * 7 + day) * DAY + hour * HOUR;
      const end = start + hours * HOUR;
      if (end <= now) continue;
      const startTime = new Date(start).toISOString().replace('.000Z', 'Z');
      segments.push({
        id: Buffer.from(JSON.stringify({ segmentID: `${broadcasterId}-${day}`, isoYear: start })).toString(
          'base64',
        ),
        start_time: startTime,
        end_time: new Date(end).toISOString().replace('.000Z', 'Z'),
        title,
        canceled_until: h % 7 === 0 && segments.length === 0 ? new Date(end).toISOString() : null,
        category: { id: String(hash(game) % 1_000_000), name: game },
        is_recurring: true,
      });
    }
  }
  return segments;
}

/**
 * `GET /helix/schedule?broadcaster_id=&first=&after=` as Twitch answers it: a page of segments
 * and the cursor of the next one, or 404 for a broadcaster without a schedule.
 */
export function devScheduleAnswer(
  query: { broadcaster_id?: string; first?: string; after?: string },
  now: number,
): { status: 200 | 400 | 404; body: unknown } {
  const id = query.broadcaster_id ?? '';
  if (!/^\d{1,20}$/.test(id)) {
    return {
      status: 400,
      body: { error: 'Bad Request', status: 400, message: 'Missing required parameter "broadcaster_id"' },
    };
  }
  const segments = devSegments(id, now);
  if (segments === null || segments.length === 0) {
    return { status: 404, body: { error: 'Not Found', status: 404, message: 'segments were not found' } };
  }
  const first = Math.min(FIRST_MAX, Math.max(1, Number(query.first) || FIRST_DEFAULT));
  const from = Math.max(0, Number(Buffer.from(query.after ?? '', 'base64').toString()) || 0);
  const page = segments.slice(from, from + first);
  const next =
    from + first < segments.length ? Buffer.from(String(from + first)).toString('base64') : undefined;
  return {
    status: 200,
    body: {
      data: {
        segments: page,
        broadcaster_id: id,
        broadcaster_name: `standin${id}`,
        broadcaster_login: `standin${id}`,
        vacation: null,
      },
      pagination: next ? { cursor: next } : {},
    },
  };
}
