/** Schedules (DECISIONS.md "Fifth wave" → "Schedules"; migration 029). */
import type { ScheduleSource } from '../../shared/schedules.ts';

export interface SchedulesTable {
  streamer_id: number;
  /** null: asked for and there is none (Twitch's 404). */
  source: ScheduleSource | null;
  vacation_start: string | null;
  vacation_end: string | null;
  /** When live sync last read it from Twitch; null for a hand-kept one. */
  read_at: string | null;
}

export interface ScheduleSegmentsTable {
  streamer_id: number;
  start_at: string;
  end_at: string;
  /** Stable across reads: the iCalendar UID's own part. */
  uid: string;
  title: string;
  game: string;
  canceled: number;
}
