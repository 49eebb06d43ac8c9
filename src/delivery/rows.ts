import type { Kysely } from 'kysely';
import { checkedOnly, inIds } from '../db/dialect.ts';
import type { Db } from '../db/schema.ts';

/**
 * The rows every outbox has (Discord's, push's, e-mail's: migrations 010, 027, 028), and the
 * statements on them that do not depend on what a row carries. A row is `pending` until it is
 * due and claimed; `sending` while one instance sends it; then `sent`, `failed` (given up),
 * `unknown` (it may have arrived: never sent again) or `skipped` (push: nothing left to tell).
 */
export type OutboxTable = 'discord_outbox' | 'push_outbox' | 'mail_outbox';

/** What a row ends as once it is not sent again. */
export type FinalState = 'sent' | 'failed' | 'unknown' | 'skipped';
const FINAL_STATES: readonly FinalState[] = ['sent', 'failed', 'unknown', 'skipped'];

interface OutboxColumns {
  id: number;
  state: 'pending' | 'sending' | FinalState;
  attempts: number;
  not_before: string;
  claimed_by: string | null;
  claimed_at: string | null;
  finished_at: string | null;
  last_error: string | null;
}

/**
 * The three tables seen through the columns they share: the one cast of this module, so that
 * each statement is written once for all of them.
 */
const rows = (db: Db) => db as unknown as Kysely<Record<OutboxTable, OutboxColumns>>;

/** Where a claimed row goes after its send. */
export type Settled =
  | { state: FinalState; error: string | null }
  /** Sent again from `notBefore`; a try that was not counted (a 429) gives its attempt back. */
  | { state: 'pending'; error: string; notBefore: string; countAttempt: boolean };

/**
 * Claims `ids` for `holder`: a conditional update of the rows still `pending`, so of two
 * instances that both believe they may send, each row goes to one. Answers the ids it got.
 */
export async function claimRows(
  db: Db,
  table: OutboxTable,
  ids: readonly number[],
  holder: string,
  now: string,
): Promise<number[]> {
  if (ids.length === 0) return [];
  const claimed = await claimQuery(db, table, ids, holder, now).execute();
  return claimed.map((r) => r.id);
}

/** claimRows' statement: the rows found by their ids, their state only checked. */
export const claimQuery = (db: Db, table: OutboxTable, ids: readonly number[], holder: string, now: string) =>
  rows(db)
    .updateTable(table)
    .set((eb) => ({
      state: 'sending',
      claimed_by: holder,
      claimed_at: now,
      attempts: eb('attempts', '+', 1),
    }))
    .where(inIds(db, 'id', ids))
    .where(checkedOnly('state', 'pending'))
    .returning('id');

/**
 * Where claimed rows end up after their sends: one statement per distinct outcome (all the
 * rows sent at once are one), in the caller's transaction.
 */
export async function settleRows(
  db: Db,
  table: OutboxTable,
  settled: readonly { id: number; outcome: Settled }[],
  now: string,
): Promise<void> {
  const groups = new Map<string, { outcome: Settled; ids: number[] }>();
  for (const { id, outcome } of settled) {
    const key = JSON.stringify(outcome);
    const group = groups.get(key) ?? { outcome, ids: [] };
    group.ids.push(id);
    groups.set(key, group);
  }
  for (const { outcome, ids } of groups.values()) {
    const query = rows(db)
      .updateTable(table)
      .where(inIds(db, 'id', ids))
      .where(checkedOnly('state', 'sending'));
    if (outcome.state === 'pending') {
      await query
        .set((eb) => ({
          state: 'pending',
          last_error: outcome.error,
          claimed_by: null,
          not_before: outcome.notBefore,
          attempts: outcome.countAttempt ? eb.ref('attempts') : eb('attempts', '-', 1),
        }))
        .execute();
    } else {
      await query.set({ state: outcome.state, last_error: outcome.error, finished_at: now }).execute();
    }
  }
}

/** Rows not sent yet (due now or waiting for a retry): the outbox's part of the queue depth. */
export async function pendingRows(db: Db, table: OutboxTable): Promise<number> {
  const row = await rows(db)
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Whether a row is due now (one indexed read). */
export const hasDueRows = (db: Db, table: OutboxTable, now: string) =>
  anyRow(db, table, 'pending', 'not_before', '<=', now);

/** Whether a row claimed before `cutoff` is still `sending` (abandonStale's work). */
export const hasStaleRows = (db: Db, table: OutboxTable, cutoff: string) =>
  anyRow(db, table, 'sending', 'claimed_at', '<', cutoff);

async function anyRow(
  db: Db,
  table: OutboxTable,
  state: 'pending' | 'sending',
  column: 'not_before' | 'claimed_at',
  op: '<=' | '<',
  value: string,
): Promise<boolean> {
  const row = await rows(db)
    .selectFrom(table)
    .select('id')
    .where('state', '=', state)
    .where(column, op, value)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Rows claimed before `cutoff` and still `sending` were being sent by a process that stopped
 * (or never heard back): they may have arrived, so they are never sent again.
 */
export async function abandonStale(db: Db, table: OutboxTable, cutoff: string, now: string): Promise<number> {
  const result = await rows(db)
    .updateTable(table)
    .set({
      state: 'unknown',
      last_error: 'interrupted while sending: it may have arrived, so it is not sent again',
      finished_at: now,
    })
    .where('state', '=', 'sending')
    .where('claimed_at', '<', cutoff)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Finished rows older than `before` are forgotten. */
export async function pruneFinished(db: Db, table: OutboxTable, before: string): Promise<void> {
  await rows(db)
    .deleteFrom(table)
    .where('state', 'in', FINAL_STATES)
    .where('finished_at', '<', before)
    .execute();
}
