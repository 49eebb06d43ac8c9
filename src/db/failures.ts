import { isConflict, isDiskFull, isUnavailable } from './dialect.ts';

/** The kinds of database failure an operator is told about (metric `db_errors_total`). */
export type FailureKind = 'disk_full' | 'unavailable' | 'conflict';

/** A write that failed because the disk is full keeps /healthz at 503 this long, unless a write commits. */
export const DISK_FULL_HOLD_MS = 60_000;

/**
 * The log says a full disk, or a database that does not answer, again at most this often (a
 * line per failed request flooded the journal during an outage), with how many since.
 */
export const FAILURE_LOG_MS = 60_000;

/** Told once when a kind of failure ends: how many requests it failed, and since when (ms). */
export type Recovered = (kind: 'disk_full' | 'unavailable', failures: number, sinceMs: number) => void;

/** Which kind of failure an error is, if one of those (the driver's codes, db/dialect.ts). */
export const failureOf = (err: unknown): FailureKind | null =>
  isDiskFull(err) ? 'disk_full' : isUnavailable(err) ? 'unavailable' : isConflict(err) ? 'conflict' : null;

/**
 * What this process saw of its database's failures (issue 45 items 19 and 22): counts by kind,
 * and whether the disk was full at the last write. A full disk fails every write while reads go
 * on, so /healthz says the instance cannot write (503) until a write commits again or a minute
 * passes, and a proxy sends the writes elsewhere; the log says so once a minute, not per request,
 * as it does a database that does not answer.
 */
export class DbFailures {
  readonly counts: Record<FailureKind, number> = { disk_full: 0, unavailable: 0, conflict: 0 };
  #diskFullAt = Number.NEGATIVE_INFINITY;
  readonly #loggedAt = { disk_full: Number.NEGATIVE_INFINITY, unavailable: Number.NEGATIVE_INFINITY };
  /** Failures of each kind since its last line in the log. */
  readonly #unsaid = { disk_full: 0, unavailable: 0 };
  /** Failures of each kind since it began failing (0: it is not failing), and when it began. */
  readonly #outage = { disk_full: 0, unavailable: 0 };
  readonly #outageSince = { disk_full: 0, unavailable: 0 };
  readonly #recovered = new Set<Recovered>();

  /**
   * A failure of this kind at `nowMs`: the number of them since the last line of the log that
   * said this kind (this one included) when it is to be said now, else null. A conflict is
   * said with every request (it is rare, and the request's own).
   */
  saw(kind: FailureKind, nowMs: number): number | null {
    this.counts[kind]++;
    if (kind === 'conflict') return 1;
    if (kind === 'disk_full') this.#diskFullAt = nowMs;
    if (this.#outage[kind]++ === 0) this.#outageSince[kind] = nowMs;
    this.#unsaid[kind]++;
    if (nowMs - this.#loggedAt[kind] < FAILURE_LOG_MS) return null;
    this.#loggedAt[kind] = nowMs;
    const since = this.#unsaid[kind];
    this.#unsaid[kind] = 0;
    return since;
  }

  /** A write committed: the disk takes writes, and the database answers. */
  wrote(): void {
    this.#diskFullAt = Number.NEGATIVE_INFINITY;
    if (this.#outage.disk_full > 0) this.#recover('disk_full');
    if (this.#outage.unavailable > 0) this.#recover('unavailable');
  }

  /** The database answered a check (/healthz): it is reachable again, if it was not. */
  answered(): void {
    if (this.#outage.unavailable > 0) this.#recover('unavailable');
  }

  /**
   * Tells `fn` when a full disk or an unreachable database ends (the log's line that the
   * service writes again, after the once-a-minute lines of the failure); the return stops it.
   */
  onRecovered(fn: Recovered): () => void {
    this.#recovered.add(fn);
    return () => this.#recovered.delete(fn);
  }

  #recover(kind: 'disk_full' | 'unavailable'): void {
    const failures = this.#outage[kind];
    this.#outage[kind] = 0;
    this.#unsaid[kind] = 0;
    this.#loggedAt[kind] = Number.NEGATIVE_INFINITY;
    for (const fn of this.#recovered) fn(kind, failures, this.#outageSince[kind]);
  }

  /** A write failed for a full disk within the last minute, and none committed since (the clock asked only then). */
  cannotWrite(now: () => number): boolean {
    if (this.#diskFullAt === Number.NEGATIVE_INFINITY) return false;
    const age = now() - this.#diskFullAt;
    return age >= 0 && age < DISK_FULL_HOLD_MS;
  }
}
