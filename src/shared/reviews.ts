/**
 * Staff reviews (DECISIONS.md "Fifth wave" → "Staff reviews"): the limits both the service and
 * the page read. Pure: the page imports this module.
 */
export const REVIEWS = {
  /** A review's note: trimmed and cut to this many characters. */
  noteMax: 2000,
  /** A re-rating request's reason: trimmed, this many characters at least and at most. */
  reasonMin: 10,
  reasonMax: 500,
  /** No re-rating request within this many days of the last publish. */
  requestAfterDays: 90,
  /** The queue holds at most this many streamers. */
  queueMax: 100,
} as const;
