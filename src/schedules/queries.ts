import type { Db } from '../db/schema.ts';
import { DAY } from '../lib/clock.ts';
import { IN_PUBLIC_VIEW } from '../catalogue/public-view.ts';
import { SCHEDULE, type ScheduleSource } from '../shared/schedules.ts';
import type { Segment } from './rules.ts';

/** What is known of one streamer's schedule, as `?schedule=1` answers it. */
export interface StreamerSchedule {
  segments: { start: string; end: string; title: string; game: string; canceled: boolean }[];
  vacation: { start: string; end: string } | null;
  source: ScheduleSource | null;
}

/** A schedule as live sync read it: null segments for Twitch's 404 (no schedule). */
export interface ReadSchedule {
  streamerId: number;
  segments: Segment[] | null;
  vacation: { start: string; end: string } | null;
}

const rowOf = (streamerId: number, s: Segment) => ({
  streamer_id: streamerId,
  start_at: s.start,
  end_at: s.end,
  uid: s.uid,
  title: s.title,
  game: s.game,
  canceled: s.canceled ? 1 : 0,
});

/** One insert per 500 rows at most (PostgreSQL's parameter limit, SQLite's statement size). */
async function insertSegments(db: Db, rows: ReturnType<typeof rowOf>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('schedule_segments')
      .values(rows.slice(i, i + 500))
      .execute();
  }
}

/** The next `days` of one streamer's schedule (segments not yet ended), earliest first. */
export async function readSchedule(
  db: Db,
  streamerId: number,
  now: Date,
  days: number = SCHEDULE.shownDays,
): Promise<StreamerSchedule> {
  const from = now.toISOString();
  const until = new Date(now.getTime() + days * DAY).toISOString();
  const [state, segments] = await Promise.all([
    db.selectFrom('schedules').selectAll().where('streamer_id', '=', streamerId).executeTakeFirst(),
    db
      .selectFrom('schedule_segments')
      .select(['start_at', 'end_at', 'title', 'game', 'canceled'])
      .where('streamer_id', '=', streamerId)
      .where('end_at', '>', from)
      .where('start_at', '<', until)
      .orderBy('start_at')
      .execute(),
  ]);
  const vacation =
    state?.vacation_start && state.vacation_end && state.vacation_end > from
      ? { start: state.vacation_start, end: state.vacation_end }
      : null;
  return {
    segments: segments.map((s) => ({
      start: s.start_at,
      end: s.end_at,
      title: s.title,
      game: s.game,
      canceled: s.canceled === 1,
    })),
    vacation,
    source: state?.source ?? null,
  };
}

/** Replaces every hand-kept segment of the streamer (none: it has no schedule). */
export async function replaceManual(trx: Db, streamerId: number, segments: Segment[]): Promise<void> {
  await trx.deleteFrom('schedules').where('streamer_id', '=', streamerId).execute();
  if (segments.length === 0) return;
  await trx
    .insertInto('schedules')
    .values({
      streamer_id: streamerId,
      source: 'manual',
      vacation_start: null,
      vacation_end: null,
      read_at: null,
    })
    .execute();
  await insertSegments(
    trx,
    segments.map((s) => rowOf(streamerId, s)),
  );
}

/**
 * Stores what one round's reads of Twitch found: each streamer's schedule replaced whole, with
 * when it was read (the once-an-hour rule). A 404 is kept as "read, no schedule".
 */
export async function storeReads(trx: Db, reads: ReadSchedule[], now: string): Promise<void> {
  if (reads.length === 0) return;
  const ids = reads.map((r) => r.streamerId);
  // Segments go with their schedule row (cascade).
  await trx.deleteFrom('schedules').where('streamer_id', 'in', ids).execute();
  await trx
    .insertInto('schedules')
    .values(
      reads.map((r) => ({
        streamer_id: r.streamerId,
        source: r.segments === null ? null : ('provider' as const),
        vacation_start: r.vacation?.start ?? null,
        vacation_end: r.vacation?.end ?? null,
        read_at: now,
      })),
    )
    .execute();
  await insertSegments(
    trx,
    reads.flatMap((r) => (r.segments ?? []).map((s) => rowOf(r.streamerId, s))),
  );
}

/** When each streamer's schedule was last read from Twitch (those never read are absent). */
export async function readTimes(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('schedules')
    .select(['streamer_id', 'read_at'])
    .where('streamer_id', 'in', [...ids])
    .where('read_at', 'is not', null)
    .execute();
  return new Map(rows.map((r) => [r.streamer_id, r.read_at ?? '']));
}

/**
 * Every streamer's next stream: the start of its first segment that is not canceled and has not
 * ended, and when that answer turns stale by the clock alone (the earliest such segment's end).
 */
export async function nextStreams(
  db: Db,
  now: Date,
): Promise<{ next: Map<number, string>; expires: number | null }> {
  const from = now.toISOString();
  const rows = await db
    .selectFrom('schedule_segments')
    .select(['streamer_id', (eb) => eb.fn.min('start_at').as('start'), (eb) => eb.fn.min('end_at').as('end')])
    .where('canceled', '=', 0)
    .where('end_at', '>', from)
    .groupBy('streamer_id')
    .execute();
  let expires: number | null = null;
  for (const r of rows) {
    const end = new Date(String(r.end)).getTime();
    if (expires === null || end < expires) expires = end;
  }
  return { next: new Map(rows.map((r) => [r.streamer_id, String(r.start)])), expires };
}

/** One segment of `GET /api/schedule` and the calendars. */
export interface UpcomingSegment {
  streamer_id: number;
  streamer_name: string;
  start: string;
  end: string;
  title: string;
  game: string;
  /** The iCalendar UID's own part. */
  uid: string;
}

/**
 * The segments of the Public view's streamers (or of one) that are not canceled, have not
 * ended and start within `days`, earliest first, at most 500; and when this list turns stale by
 * the clock alone (a listed segment ends, or a later one comes within `days`).
 */
export async function upcoming(
  db: Db,
  now: Date,
  days: number,
  streamerId?: number,
): Promise<{ segments: UpcomingSegment[]; expires: number | null }> {
  const from = now.toISOString();
  const span = days * DAY;
  const until = new Date(now.getTime() + span).toISOString();
  let query = db
    .selectFrom('schedule_segments')
    .innerJoin('streamers', 'streamers.id', 'schedule_segments.streamer_id')
    .where('schedule_segments.canceled', '=', 0)
    .where('schedule_segments.end_at', '>', from)
    .where(IN_PUBLIC_VIEW);
  if (streamerId !== undefined) query = query.where('schedule_segments.streamer_id', '=', streamerId);
  const [rows, later] = await Promise.all([
    query
      .select([
        'schedule_segments.streamer_id',
        'streamers.name as streamer_name',
        'schedule_segments.start_at as start',
        'schedule_segments.end_at as end',
        'schedule_segments.title',
        'schedule_segments.game',
        'schedule_segments.uid',
      ])
      .where('schedule_segments.start_at', '<', until)
      .orderBy('schedule_segments.start_at')
      .orderBy('schedule_segments.streamer_id')
      .limit(SCHEDULE.listMax)
      .execute(),
    query
      .select((eb) => eb.fn.min('schedule_segments.start_at').as('start'))
      .where('schedule_segments.start_at', '>=', until)
      .executeTakeFirst(),
  ]);
  let expires = later?.start ? new Date(String(later.start)).getTime() - span : null;
  for (const r of rows) {
    const end = new Date(r.end).getTime();
    if (expires === null || end < expires) expires = end;
  }
  return { segments: rows, expires };
}

/**
 * Reads that failed (other than a rate limit) count as reads for the once-an-hour rule: the
 * schedule kept so far stays as it was, and the next read is an hour later.
 */
export async function markRead(trx: Db, ids: readonly number[], now: string): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .insertInto('schedules')
    .values(
      ids.map((id) => ({
        streamer_id: id,
        source: null,
        vacation_start: null,
        vacation_end: null,
        read_at: now,
      })),
    )
    .onConflict((oc) => oc.column('streamer_id').doUpdateSet({ read_at: now }))
    .execute();
}
