import { createHash } from 'node:crypto';
import { singleLine } from '../lib/input.ts';
import { SCHEDULE, segmentProblem } from '../shared/schedules.ts';

/** A segment as it is stored (schedule_segments), times in the house format. */
export interface Segment {
  start: string;
  end: string;
  /** Stable across reads and edits: the iCalendar UID's own part. */
  uid: string;
  title: string;
  game: string;
  canceled: boolean;
}

/** RFC 3339 date-times only: `2026-12-01T18:00:00Z`, with fractions or an offset. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

function timeOf(value: unknown): number | null {
  if (typeof value !== 'string' || !DATE_TIME.test(value)) return null;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? null : ms;
}

/** A short stable id of what identifies a segment at its source. */
export const uidOf = (...parts: (string | number)[]): string =>
  createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 22);

/**
 * A hand-kept schedule (DECISIONS.md "Schedules"): at most 50 segments, each ending after now
 * and starting within the next 60 days, `start` before `end`, at most 24 hours long, `title`
 * single-line and cut to 140. Segments may overlap (the text lists no such rule), but two may
 * not start at the same moment: a segment is known by its start (its iCalendar UID, the table's
 * key). Returns them earliest first, or null when anything breaks a rule (400 `Invalid
 * schedule`: nothing is stored).
 */
export function manualSegments(input: unknown, streamerId: number, now: Date): Segment[] | null {
  if (!Array.isArray(input) || input.length > SCHEDULE.maxSegments) return null;
  const at = now.getTime();
  const out: (Segment & { from: number; to: number })[] = [];
  for (const item of input) {
    if (!item || typeof item !== 'object' || Array.isArray(item)) return null;
    const { start, end, title } = item as Record<string, unknown>;
    const from = timeOf(start);
    const to = timeOf(end);
    if (from === null || to === null || segmentProblem(from, to, at) !== null) return null;
    if (title !== undefined && title !== null && typeof title !== 'string') return null;
    const startIso = new Date(from).toISOString();
    out.push({
      from,
      to,
      start: startIso,
      end: new Date(to).toISOString(),
      uid: uidOf('manual', streamerId, startIso),
      title: singleLine(title ?? '', SCHEDULE.titleMax),
      game: '',
      canceled: false,
    });
  }
  out.sort((a, b) => a.from - b.from);
  if (out.some((s, i) => i > 0 && s.from === out[i - 1]?.from)) return null;
  return out.map(({ from: _from, to: _to, ...segment }) => segment);
}
