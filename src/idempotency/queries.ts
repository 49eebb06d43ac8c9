import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { Db } from '../db/schema.ts';
import { DAY } from '../lib/clock.ts';
import { fail } from '../errors.ts';

/** How long a key's answer is kept (issue 30 item 11: "kept for a day"). */
export const KEPT_FOR = DAY;

/** A request that carries an `Idempotency-Key` no answer is kept under yet. */
export interface PendingKey {
  /** Whose key it is (`user:<id>`, `session:<tag>`, `guest:<address tag>`). */
  sender: string;
  key: string;
  /** SHA-256 of the method, the path with its query and the body. */
  request: string;
  /** When the request came, by the app's clock: the kept answer's day starts then. */
  at: Date;
}

export interface KeptAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What the key's row says about a request with that key. */
export type Found = { kind: 'replay'; answer: KeptAnswer } | { kind: 'reused' } | null;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The answer kept under a request's key within the last day: to replay if it was kept for
 * the same request, `reused` if for another; null when the key is free.
 */
export async function findKey(db: Db, pending: PendingKey): Promise<Found> {
  const row = await db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('sender', '=', pending.sender)
    .where('key', '=', pending.key)
    .where('created_at', '>', iso(pending.at.getTime() - KEPT_FOR))
    .executeTakeFirst();
  // A row without an answer (a claim written before issue 40) holds nothing: keepIn replaces it.
  if (!row || row.status === null || row.body === null) return null;
  if (row.request !== pending.request) return { kind: 'reused' };
  const headers = JSON.parse(row.headers ?? '{}') as Record<string, string>;
  return { kind: 'replay', answer: { status: row.status, headers, body: row.body } };
}

/**
 * Inside the operation's write transaction, as its last statement: keeps `answer` under the
 * request's key, so that the key, the operation's writes and the answer commit together
 * (issue 40), and a process that dies before the commit leaves none of them. Nothing to keep
 * without a key. A key already taken (a duplicate sent at the same time committed first; on
 * PostgreSQL the insert waits for it) throws 409 `idempotency_key_in_use`, which rolls this
 * request's writes back; the plugin then answers with what the key holds. A row past its day
 * (or a claim written before issue 40) is replaced.
 */
export async function keepIn(trx: Db, pending: PendingKey | null, answer: KeptAnswer): Promise<void> {
  if (pending === null) return;
  const { sender, key, request, at } = pending;
  const row = {
    sender,
    key,
    request,
    status: answer.status,
    headers: JSON.stringify(answer.headers),
    body: answer.body,
    created_at: at.toISOString(),
  };
  const kept = await trx
    .insertInto('idempotency_keys')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['sender', 'key'])
        .doUpdateSet(row)
        .where((eb) =>
          eb.or([
            eb('idempotency_keys.created_at', '<=', iso(at.getTime() - KEPT_FOR)),
            eb('idempotency_keys.status', 'is', null),
          ]),
        ),
    )
    .returning('key')
    .executeTakeFirst();
  if (!kept) throw fail('idempotency_key_in_use');
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
