import type { Db } from '../db/schema.ts';
import type { LoggedEvent } from '../events/log.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { FinalState, OutboxTable, Settled } from './rows.ts';

/**
 * What a channel (Discord, push, e-mail) brings to the outbox deliverer (deliverer.ts): which
 * events become which rows, how one row is sent and what its answer means.
 */

/** The longest wait a Retry-After is honoured for; a longer one is waited this long, then tried again. */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;
/** Lanes a `*` pause stops: all of them (Discord's global rate limit). */
export const EVERY_LANE = '*';

/**
 * A `Retry-After` (RFC 9110: seconds, or an HTTP date) as a wait from `now`, at most
 * MAX_RETRY_AFTER_MS; 1 s when there is none or it cannot be read.
 */
export function retryAfterMs(value: string | string[] | undefined, now: number): number {
  const raw = String(value ?? '').trim();
  let ms = /^\d+(\.\d+)?$/.test(raw) ? Math.ceil(Number(raw) * 1000) : Date.parse(raw) - now;
  if (!(ms >= 0)) ms = 1000;
  return Math.min(ms, MAX_RETRY_AFTER_MS);
}

/** What one send came to, as the channel reads its answer. */
export type Answer = (
  | { kind: 'sent' }
  /** Not taken this time: tried again after the next of the channel's waits, or given up after the last. */
  | { kind: 'retry'; error: string }
  /** Asked to wait (a 429's Retry-After): tried again after `ms`, which is not counted as a try. */
  | { kind: 'wait'; error: string; ms: number }
  /** Never sent again: refused for good, it may have arrived, or there is nothing left to send. */
  | {
      kind: 'final';
      state: Exclude<FinalState, 'sent'>;
      error: string;
      /** Its receiver is gone or off (a webhook deleted, a subscription expired, an address removed). */
      gone?: true;
    }
) & {
  /** A lane (or EVERY_LANE) that sends nothing for `ms`: the receiver asked for it. */
  pause?: { lane: string; ms: number };
};

/** A claimed row, with what the channel needs to send it. */
export interface ClaimedRow {
  id: number;
  /** Tries so far, this one included. */
  attempts: number;
}

/**
 * What a channel (Discord, push, e-mail) brings to the outbox deliverer: which events become
 * which rows, how one row is sent and what its answer means. The rest is the deliverer's.
 */
export interface OutboxChannel<Row extends ClaimedRow> {
  /** Its lease, its cursor in the log, its metric label and the prefix of its log lines. */
  readonly name: string;
  readonly table: OutboxTable;
  /** The log's events it reads. */
  readonly events: readonly LoggedEvent['type'][];
  /** The waits before the retries of a failed try: one try more than there are waits. */
  readonly retryWaitsMs: readonly number[];
  /** A row claimed longer ago than this and still `sending`: its sender stopped. */
  readonly staleAfterMs: number;
  /** How long finished rows are kept. */
  readonly keptForMs: number;
  /** Rows in flight at once. */
  readonly inFlight: number;
  /**
   * While the service is busy answering requests (lib/traffic.ts), at most this many messages a
   * second, claimed a few at a time: by how urgent the channel's messages are (a go-live's push
   * now, a digest's mail within the hour).
   */
  readonly giveWayPerSecond: number;
  /** A lane sends one row at a time, oldest first (Discord's webhooks); else rows go side by side. */
  readonly oneAtATime: boolean;
  /** In the transaction that moves the cursor: the rows `events` become. */
  fromLog(trx: Db, events: LoggedEvent[], now: Date): Promise<void>;
  /** Work of its own besides the log, done by the lease's holder before it sends (e-mail's kinds and digest). */
  readonly chores?: { waiting(now: Date): Promise<boolean>; run(now: Date): Promise<void> };
  /** Due rows, oldest first, at most `limit`, none of the lanes in `skip`: each with its lane. */
  due(db: Db, now: string, limit: number, skip: readonly string[]): Promise<{ id: number; lane: string }[]>;
  /** The claimed rows `ids` with what sending them needs (a row gone since is left out). */
  load(db: Db, ids: number[]): Promise<Row[]>;
  /**
   * In the transaction that writes the rows `sent` as sent (several at once: deliverer.ts), what
   * the channel notes of them (push: the subscriptions that took a message).
   */
  settled?(trx: Db, sent: Row[], now: string): Promise<void>;
  /** Sends one row and reads the answer (and does what the answer says of the receiver: `db`). */
  send(db: Db, row: Row, now: Date): Promise<Answer>;
  /** The deliverer stopped: connections are closed. */
  close?(): void;
}

/**
 * How one try ended, as `deliveries_total{channel,result}` counts them (metrics/collector.ts):
 * where its row went (`sent`; `failed`: given up after its tries or refused for good;
 * `disabled`: its receiver is gone or turned off; `unknown`: it may have arrived; `skipped`),
 * `retried` and `waited` (due again), or `error` (the try threw, its row left to go stale).
 */
const RESULTS = ['sent', 'retried', 'waited', 'failed', 'disabled', 'unknown', 'skipped', 'error'] as const;
export type DeliveryResult = (typeof RESULTS)[number];

/** Every result at 0: no tries yet. */
export const noTries = () => Object.fromEntries(RESULTS.map((r) => [r, 0])) as Record<DeliveryResult, number>;

/** A try's result, from its answer and where its row goes. */
export function resultOf(answer: Answer, outcome: Settled): DeliveryResult {
  if (answer.kind === 'final' && answer.gone) return 'disabled';
  return outcome.state !== 'pending' ? outcome.state : outcome.countAttempt ? 'retried' : 'waited';
}

/** What an answer makes of its row, logged. */
export function outcomeOf<Row extends ClaimedRow>(
  channel: OutboxChannel<Row>,
  log: FastifyBaseLogger,
  row: Row,
  answer: Answer,
  now: Date,
): Settled {
  const { name, retryWaitsMs } = channel;
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
  switch (answer.kind) {
    case 'sent':
      return { state: 'sent', error: null };
    case 'wait':
      log.info(`${name}: message ${row.id} asked to wait ${answer.ms} ms (${answer.error})`);
      return { state: 'pending', error: answer.error, notBefore: at(answer.ms), countAttempt: false };
    case 'retry': {
      const wait = retryWaitsMs[row.attempts - 1];
      if (wait === undefined) {
        log.warn(`${name}: message ${row.id} dropped after ${row.attempts} tries: ${answer.error}`);
        return { state: 'failed', error: answer.error };
      }
      log.info(`${name}: message ${row.id} not taken (${answer.error}); trying again in ${wait} ms`);
      return { state: 'pending', error: answer.error, notBefore: at(wait), countAttempt: true };
    }
    case 'final':
      if (answer.state !== 'skipped') {
        log.warn(
          `${name}: message ${row.id} ${answer.state === 'unknown' ? 'may have arrived and is not sent again' : 'dropped'}: ${answer.error}`,
        );
      }
      return { state: answer.state, error: answer.error };
  }
}
