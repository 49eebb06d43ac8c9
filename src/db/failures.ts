import { isConflict, isDiskFull, isUnavailable } from './dialect.ts';

/** The kinds of database failure an operator is told about (metric `db_errors_total`). */
export type FailureKind = 'disk_full' | 'unavailable' | 'conflict';

/** A write that failed because the disk is full keeps /healthz at 503 this long, unless a write commits. */
export const DISK_FULL_HOLD_MS = 60_000;

/** The log says a full disk again at most this often. */
const DISK_FULL_LOG_MS = 60_000;

/** Which kind of failure an error is, if one of those (the driver's codes, db/dialect.ts). */
export const failureOf = (err: unknown): FailureKind | null =>
  isDiskFull(err) ? 'disk_full' : isUnavailable(err) ? 'unavailable' : isConflict(err) ? 'conflict' : null;

/**
 * What this process saw of its database's failures (issue 45 items 19 and 22): counts by kind,
 * and whether the disk was full at the last write. A full disk fails every write while reads go
 * on, so /healthz says the instance cannot write (503) until a write commits again or a minute
 * passes, and a proxy sends the writes elsewhere; the log says so once a minute, not per request.
 */
export class DbFailures {
  readonly counts: Record<FailureKind, number> = { disk_full: 0, unavailable: 0, conflict: 0 };
  #diskFullAt = Number.NEGATIVE_INFINITY;
  #loggedAt = Number.NEGATIVE_INFINITY;

  /** A failure of this kind at `nowMs`: whether to write it to the log now. */
  saw(kind: FailureKind, nowMs: number): boolean {
    this.counts[kind]++;
    if (kind !== 'disk_full') return false;
    this.#diskFullAt = nowMs;
    if (nowMs - this.#loggedAt < DISK_FULL_LOG_MS) return false;
    this.#loggedAt = nowMs;
    return true;
  }

  /** A write committed: the disk takes writes. */
  wrote(): void {
    this.#diskFullAt = Number.NEGATIVE_INFINITY;
  }

  /** A write failed for a full disk within the last minute, and none committed since (the clock asked only then). */
  cannotWrite(now: () => number): boolean {
    if (this.#diskFullAt === Number.NEGATIVE_INFINITY) return false;
    const age = now() - this.#diskFullAt;
    return age >= 0 && age < DISK_FULL_HOLD_MS;
  }
}
