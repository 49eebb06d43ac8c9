import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { DbContext } from '../db/context.ts';
import { writeTransaction } from '../db/transaction.ts';
import { type LiveEvent, publish } from '../db/event-log.ts';
import { maintainHistory } from '../history/prune.ts';
import { type Clock, wakeEvery } from '../lib/clock.ts';
import { type Provider, PROVIDER_NAMES } from '../shared/rules.ts';
import { SyncError } from './http.ts';
import { releaseLease, takeLease } from '../db/lease.ts';
import { readsPerBatch, ScheduleReads } from './schedule-reads.ts';
import type { LiveProvider } from './provider.ts';
import { applyBatch, recordError, recordOk, recordRound, syncTargets, type Target } from './queries.ts';

const LEASE = 'live-sync';
/** The batches of a round are spread over this share of the interval. */
const SPREAD = 0.8;

export interface PollerOptions {
  database: DbContext;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The providers whose client id and secret are set. */
  providers: LiveProvider[];
  intervalMs: number;
  random?: () => number;
  /** Told of each call's result (`ok` or a failure kind), for the metrics. */
  onCheck?: (provider: Provider, result: string) => void;
}

/**
 * When each of `n` batches of one provider is due in a round that starts at `started`: at even
 * steps over SPREAD of the interval, each up to half a step late (jitter), in order.
 */
export function dueTimes(n: number, started: number, intervalMs: number, random: () => number): number[] {
  const step = (intervalMs * SPREAD) / Math.max(n, 1);
  return Array.from({ length: n }, (_, k) => started + step * (k + random() * 0.5));
}

interface Batch {
  provider: LiveProvider;
  targets: Target[];
  due: number;
  /** Schedules this batch reads at most, and the provider's calls they leave for the live checks. */
  reads: { limit: number; reserve: number };
}

/**
 * Keeps streamers in sync with the providers. Every instance runs a heartbeat (a quarter of
 * the interval) that takes or renews the lease (half the interval), so exactly one instance
 * polls and another takes over within one interval when it dies. The holder runs a round
 * per interval: every streamer of each provider in batches, spread over the interval with
 * jitter so that thousands of streamers never burst. `runOnce()` runs a round at once
 * (tests, and a "sync now").
 */
export class LivePoller {
  readonly holder = randomUUID();
  #held = false;
  #stopWaking = (): void => undefined;
  #abort = new AbortController();
  #round: Promise<void> | null = null;
  #nextRoundAt = 0;
  #failing = new Map<Provider, string>();
  #htmlWarned = new Set<Provider>();
  readonly #random: () => number;
  readonly #schedules: ScheduleReads;

  constructor(private readonly opts: PollerOptions) {
    this.#random = opts.random ?? Math.random;
    this.#schedules = new ScheduleReads(opts);
  }

  get enabled(): boolean {
    return this.opts.providers.length > 0 && this.opts.intervalMs > 0;
  }

  isEnabled(provider: Provider): boolean {
    return this.enabled && this.opts.providers.some((p) => p.id === provider);
  }

  start(): void {
    if (!this.enabled) return;
    const period = Math.max(250, this.opts.intervalMs / 4);
    this.#stopWaking = wakeEvery(
      period,
      () =>
        this.#heartbeat().catch((err: unknown) =>
          this.opts.log.warn({ err }, 'live sync: cannot take the lease'),
        ),
      period * (0.25 + this.#random() * 0.25),
    );
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    this.#stopWaking();
    await this.#round?.catch(() => undefined);
    if (this.#held) await releaseLease(this.opts.database.db, LEASE, this.holder).catch(() => undefined);
    this.#held = false;
  }

  /** Takes the lease and runs one round at once; false when another instance holds it. */
  async runOnce(): Promise<boolean> {
    if (!this.enabled) return false;
    await this.#round?.catch(() => undefined);
    if (!(await this.#takeLease())) return false;
    while (this.#round) await this.#round.catch(() => undefined);
    this.#round = this.#runRound(false);
    try {
      await this.#round;
    } finally {
      this.#round = null;
    }
    return true;
  }

  async #takeLease(): Promise<boolean> {
    const held = await takeLease(
      this.opts.database.db,
      LEASE,
      this.holder,
      this.opts.clock.now(),
      this.opts.intervalMs / 2,
    );
    if (held !== this.#held) {
      this.opts.log.info(
        held
          ? 'live sync: this instance now polls the providers (it holds the lease)'
          : 'live sync: another instance polls the providers now',
      );
    }
    this.#held = held;
    return held;
  }

  async #heartbeat(): Promise<void> {
    if (!(await this.#takeLease()) || this.#round) return;
    if (this.opts.clock.now().getTime() < this.#nextRoundAt) return;
    this.#round = this.#runRound(true)
      .catch((err: unknown) => this.opts.log.warn({ err }, 'live sync: round failed'))
      .finally(() => {
        this.#round = null;
      });
  }

  async #runRound(spread: boolean): Promise<void> {
    const { database, clock, intervalMs } = this.opts;
    const { db } = database;
    const started = clock.now().getTime();
    this.#nextRoundAt = started + intervalMs;
    // Before the checks: a stream left open long ago is ended before a check could extend it.
    await maintainHistory(database, clock.now()).catch((err: unknown) =>
      this.opts.log.warn({ err }, 'live sync: the stream history upkeep failed; the next round tries again'),
    );
    const batches: Batch[] = [];
    for (const provider of this.opts.providers) {
      const targets = (await syncTargets(db, provider.id)).filter((t) =>
        provider.channelPattern.test(t.channel),
      );
      const due = dueTimes(Math.ceil(targets.length / provider.batchSize), started, intervalMs, this.#random);
      const reads = { limit: readsPerBatch(provider.batchSize, intervalMs), reserve: 2 * due.length + 10 };
      due.forEach((at, k) =>
        batches.push({
          provider,
          targets: targets.slice(k * provider.batchSize, (k + 1) * provider.batchSize),
          due: at,
          reads,
        }),
      );
    }
    batches.sort((a, b) => a.due - b.due);
    const checked = new Map(this.opts.providers.map((p) => [p.id, 0]));
    for (const batch of batches) {
      if (spread) {
        // A rate-limited provider's batches are skipped, not waited for: the others go on.
        const wait = batch.due - clock.now().getTime();
        if (wait > 0 && !(await this.#sleep(wait))) return;
        if (!this.#held) return;
      }
      if (batch.provider.client.paused) continue;
      checked.set(batch.provider.id, (checked.get(batch.provider.id) ?? 0) + (await this.#runBatch(batch)));
    }
    await this.#schedules.settle();
    const now = clock.now().toISOString();
    for (const [provider, n] of checked) await recordRound(db, provider, n, now);
  }

  /** Sleeps on the app's clock unless stopped meanwhile; false when stopped. */
  async #sleep(ms: number): Promise<boolean> {
    try {
      await this.opts.clock.sleep(ms, this.#abort.signal);
      return true;
    } catch {
      return false;
    }
  }

  async #runBatch({ provider, targets, reads }: Batch): Promise<number> {
    const { database, clock, log } = this.opts;
    const { db } = database;
    const label = `live sync of ${provider.id} (${PROVIDER_NAMES[provider.id]})`;
    const channels = [...new Set(targets.map((t) => t.channel))];
    const wantProfiles = [...new Set(targets.filter((t) => t.needsProfile).map((t) => t.channel))];
    try {
      const answer = await provider.check(channels, wantProfiles);
      const now = clock.now().toISOString();
      const n = await writeTransaction(database, async (trx) => {
        const events: LiveEvent[] = [];
        const checked = await applyBatch(trx, provider.id, targets, answer, now, events);
        publish(trx, events);
        // In the batch's transaction: one commit a batch, not two (the sync round's cost, issue 28).
        await recordOk(trx, provider.id, now);
        return checked;
      });
      this.opts.onCheck?.(provider.id, 'ok');
      // After the live status is written, never before it (issue 43: it is not delayed).
      this.#schedules.start(provider, targets, answer.ids, reads.limit, reads.reserve);
      if (this.#failing.delete(provider.id)) log.info(`${label} works again`);
      this.#htmlWarned.delete(provider.id);
      return n;
    } catch (err) {
      const message =
        err instanceof SyncError
          ? err.message
          : `unexpected error: ${err instanceof Error ? err.message : String(err)}`;
      this.opts.onCheck?.(provider.id, err instanceof SyncError ? err.kind : 'error');
      await recordError(db, provider.id, message, clock.now().toISOString()).catch(() => undefined);
      const html = err instanceof SyncError && err.kind === 'html';
      if (html ? !this.#htmlWarned.has(provider.id) : this.#failing.get(provider.id) !== message) {
        log.warn(`${label} failed: ${message}. Its streamers are left unchanged until a check succeeds.`);
      }
      if (html) this.#htmlWarned.add(provider.id);
      this.#failing.set(provider.id, message);
      return 0;
    }
  }
}
