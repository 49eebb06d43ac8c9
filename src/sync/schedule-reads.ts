import type { FastifyBaseLogger } from 'fastify';
import type { DbContext } from '../db/context.ts';
import { writeTransaction } from '../db/transaction.ts';
import type { Clock } from '../lib/clock.ts';
import { markRead, type ReadSchedule, readTimes, storeReads } from '../schedules/queries.ts';
import { SCHEDULE } from '../shared/schedules.ts';
import { SyncError } from './http.ts';
import type { LiveProvider } from './provider.ts';
import type { Target } from './queries.ts';

/** Reads of one batch running at once. */
const AT_ONCE = 4;

/**
 * How many schedules one batch reads at most: twice its share of reading every streamer once
 * an hour (a round every `intervalMs`), so a provider's streamers are all read within the hour
 * and the reads stay a small part of the provider's rate limit (issue 43: 10,000 streamers in
 * batches of 100 every minute read 4 a batch, about 170 points a minute of Twitch's 800).
 */
export const readsPerBatch = (batchSize: number, intervalMs: number): number =>
  Math.ceil((2 * batchSize * intervalMs) / SCHEDULE.readEveryMs);

/**
 * Live sync's reading of schedules (DECISIONS.md "Schedules"), in the same lease and batches as
 * the live status: after a batch's live status is written, the schedules of its streamers not
 * read in the last hour are read in the background (the next batch does not wait for them; the
 * round ends when they are done), and written in one transaction. A rate limit stops the reads
 * (the provider's client pauses every call until it may be called again), and so does the
 * provider's budget running low: the reads leave `reserve` calls for the live checks.
 */
export class ScheduleReads {
  #running: Promise<void>[] = [];

  constructor(private readonly opts: { database: DbContext; clock: Clock; log: FastifyBaseLogger }) {}

  /** Starts the reads of one batch (accountIds: those the batch's answer just carried). */
  start(
    provider: LiveProvider,
    targets: Target[],
    accountIds: Map<string, string>,
    limit: number,
    reserve: number,
  ): void {
    const readOne = provider.schedule;
    if (!readOne || limit <= 0) return;
    this.#running.push(
      this.#read(provider, readOne, targets, accountIds, limit, reserve).catch((err: unknown) =>
        this.opts.log.warn({ err }, 'live sync: reading schedules failed; the next round tries again'),
      ),
    );
  }

  /** Waits for every read started (the end of a round). */
  async settle(): Promise<void> {
    while (this.#running.length > 0) await Promise.all(this.#running.splice(0));
  }

  async #read(
    provider: LiveProvider,
    readOne: (accountId: string, id: number, now: Date) => Promise<ReadSchedule>,
    targets: Target[],
    accountIds: Map<string, string>,
    limit: number,
    reserve: number,
  ): Promise<void> {
    const { database, clock } = this.opts;
    const now = clock.now();
    const read = await readTimes(
      database.db,
      targets.map((t) => t.id),
    );
    const dueBefore = now.getTime() - SCHEDULE.readEveryMs;
    const lastRead = (t: Target) => read.get(t.id) ?? '';
    const due = targets
      .filter((t) => lastRead(t) === '' || new Date(lastRead(t)).getTime() <= dueBefore)
      .map((t) => ({ target: t, accountId: t.accountId ?? accountIds.get(t.channel) }))
      .filter((d): d is { target: Target; accountId: string } => d.accountId !== undefined)
      .sort((a, b) =>
        lastRead(a.target) < lastRead(b.target) ? -1 : lastRead(a.target) > lastRead(b.target) ? 1 : 0,
      )
      .slice(0, limit);
    const reads: ReadSchedule[] = [];
    const failed: number[] = [];
    const { client } = provider;
    let stopped = false;
    for (let i = 0; i < due.length && !stopped; i += AT_ONCE) {
      await Promise.all(
        due.slice(i, i + AT_ONCE).map(async ({ target, accountId }) => {
          if (stopped || client.paused || (client.remaining !== null && client.remaining <= reserve)) {
            stopped = true;
            return;
          }
          try {
            reads.push(await readOne(accountId, target.id, now));
          } catch (err) {
            if (err instanceof SyncError && err.kind === 'rate_limited') stopped = true;
            else failed.push(target.id);
          }
        }),
      );
    }
    if (reads.length === 0 && failed.length === 0) return;
    const at = clock.now().toISOString();
    await writeTransaction(
      database,
      async (trx) => {
        await storeReads(trx, reads, at);
        await markRead(trx, failed, at);
      },
      'content',
    );
  }
}
