/** Staff reviews before a rating is published, and the verified streamer's re-rating requests. */
import type { Generated } from 'kysely';

/** One staff member's review of a streamer (or abstention); `user_id` null: the shared password. */
export interface StaffReviewsTable {
  id: Generated<number>;
  streamer_id: number;
  user_id: number | null;
  /** 1: an abstention (a conflict of interest), without scores. */
  abstain: number;
  s: number | null;
  g: number | null;
  a: number | null;
  v: number | null;
  n: number | null;
  ns: number | null;
  o: number | null;
  note: string | null;
  at: string;
}

/** A re-rating asked for by the user who speaks for the streamer; open while `closed_at` is null. */
export interface ReratingRequestsTable {
  id: Generated<number>;
  streamer_id: number;
  user_id: number | null;
  reason: string;
  at: string;
  closed_at: string | null;
}

/** When a streamer's reviews were last published. */
export interface ReviewPublishesTable {
  streamer_id: number;
  at: string;
}
