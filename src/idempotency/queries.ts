import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { Db } from '../db/schema.ts';
import { DAY, MINUTE } from '../lib/clock.ts';

/** How long a key's answer is kept (issue 30 item 11: "kept for a day"). */
export const KEPT_FOR = DAY;
/**
 * A claim older than this whose request never answered (its instance died, or writing the
 * answer failed) is taken over by a retry, so that it cannot block the key for the day.
 */
export const ABANDONED_AFTER = MINUTE;

export interface RequestKey {
  /** Whose key it is (`user:<id>`, `session:<tag>`, `guest:<address tag>`). */
  sender: string;
  key: string;
  /** SHA-256 of the method, the path with its query and the body. */
  request: string;
}

/** A request that runs: its row, as claimed at `createdAt`. */
export interface Claim extends RequestKey {
  createdAt: string;
}

export interface KeptAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Outcome =
  | { kind: 'claimed'; claim: Claim }
  | { kind: 'replay'; answer: KeptAnswer }
  | { kind: 'reused' }
  | { kind: 'in_use' };

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Claims a key for a request, or answers what its earlier use decides. The claim is an
 * insert that the primary key lets only one request win, whichever instance it runs on; a
 * loser reads the winner's row. An expired row is deleted and the claim tried once more.
 */
export async function claimKey(db: Db, request: RequestKey, now: Date): Promise<Outcome> {
  const at = now.toISOString();
  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await db
      .insertInto('idempotency_keys')
      .values({ ...request, status: null, headers: null, body: null, created_at: at })
      .onConflict((oc) => oc.columns(['sender', 'key']).doNothing())
      .returning('created_at')
      .executeTakeFirst();
    if (inserted) return { kind: 'claimed', claim: { ...request, createdAt: at } };

    const row = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('sender', '=', request.sender)
      .where('key', '=', request.key)
      .executeTakeFirst();
    if (!row) continue;
    if (row.created_at <= iso(now.getTime() - KEPT_FOR)) {
      await forget(db, { ...request, createdAt: row.created_at });
      continue;
    }
    if (row.request !== request.request) return { kind: 'reused' };
    if (row.status !== null && row.body !== null) {
      const headers = JSON.parse(row.headers ?? '{}') as Record<string, string>;
      return { kind: 'replay', answer: { status: row.status, headers, body: row.body } };
    }
    if (row.created_at > iso(now.getTime() - ABANDONED_AFTER)) return { kind: 'in_use' };
    // An abandoned claim: taken over by whoever moves its time first.
    const taken = await db
      .updateTable('idempotency_keys')
      .set({ created_at: at })
      .where('sender', '=', request.sender)
      .where('key', '=', request.key)
      .where('status', 'is', null)
      .where('created_at', '=', row.created_at)
      .returning('created_at')
      .executeTakeFirst();
    return taken ? { kind: 'claimed', claim: { ...request, createdAt: at } } : { kind: 'in_use' };
  }
  return { kind: 'in_use' };
}

/** Keeps the answer of a claimed request (unless another request took the claim over). */
export async function keepAnswer(db: Db, claim: Claim, answer: KeptAnswer): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status: answer.status, headers: JSON.stringify(answer.headers), body: answer.body })
    .where('sender', '=', claim.sender)
    .where('key', '=', claim.key)
    .where('created_at', '=', claim.createdAt)
    .where('status', 'is', null)
    .execute();
}

/** Gives a key back: the request answered with something not kept, or expired. */
export async function forget(db: Db, claim: Claim): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('sender', '=', claim.sender)
    .where('key', '=', claim.key)
    .where('created_at', '=', claim.createdAt)
    .execute();
}

/** Rows one statement of the upkeep deletes: small, so that no request waits on it. */
const BATCH = 500;

/** Deletes keys older than a day, in small statements; answers how many went. */
export async function pruneKeys(db: Db, now: Date): Promise<number> {
  const cut = iso(now.getTime() - KEPT_FOR);
  let total = 0;
  for (;;) {
    const result = await db
      .deleteFrom('idempotency_keys')
      .where('created_at', 'in', (eb) =>
        eb.selectFrom('idempotency_keys').select('created_at').where('created_at', '<=', cut).limit(BATCH),
      )
      .where('created_at', '<=', cut)
      .executeTakeFirst();
    const n = Number(result.numDeletedRows);
    total += n;
    if (n < BATCH) return total;
    await yieldToRequests();
  }
}
