import { setTimeout as sleep } from 'node:timers/promises';
import type { Answer, Browser } from './http.ts';
import { type Ledger, ratingNote } from './ledger.ts';

/** Counts answers by operation and status, and keeps a few examples of each kind. */
export class Tally {
  readonly counts = new Map<string, number>();
  readonly examples = new Map<string, string>();
  requests = 0;
  slowestMs = 0;

  record(operation: string, answer: Answer): Answer {
    this.requests++;
    this.slowestMs = Math.max(this.slowestMs, answer.ms);
    const retry = answer.headers.get('retry-after');
    const bare = (answer.status === 503 || answer.status === 429) && !retry ? ' without Retry-After' : '';
    const key = `${operation} ${answer.status === 0 ? `no answer (${answer.error})` : answer.status}${bare}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    if (!this.examples.has(key)) {
      this.examples.set(key, `${answer.text.slice(0, 120)}${retry ? ` [Retry-After: ${retry}]` : ''}`);
    }
    return answer;
  }

  /** Entries whose status fails the test, as `operation status ×count (example)`. */
  unexpected(ok: (status: number, key: string) => boolean): string[] {
    return [...this.counts]
      .filter(([key]) => !ok(statusOf(key), key))
      .map(([key, n]) => `${key} ×${n}${this.examples.get(key) ? ` (${this.examples.get(key)})` : ''}`);
  }

  count(ok: (status: number) => boolean): number {
    let n = 0;
    for (const [key, c] of this.counts) if (ok(statusOf(key))) n += c;
    return n;
  }
}

const statusOf = (key: string) => Number(/ (\d{3})( without Retry-After)?$/.exec(key)?.[1] ?? 0);
export const is2xx = (status: number) => status >= 200 && status < 300;
/**
 * Served, or shed as documented (503 with Retry-After): a CI machine running several service
 * processes at once is at times genuinely overloaded, and shedding is then the right answer.
 */
export const servedOrShed = (status: number, key: string) =>
  is2xx(status) || (status === 503 && withRetryAfter(key));
/** 503 (or 429) that tells the client when to come back. */
export const withRetryAfter = (key: string) => !key.endsWith('without Retry-After');

/** Workers that repeat a step until stopped; a step without an answer pauses a little. */
export function startWorkers(n: number, step: (worker: number, i: number) => Promise<Answer>) {
  let stopped = false;
  const done = Promise.all(
    Array.from({ length: n }, async (_, worker) => {
      for (let i = 0; !stopped; i++) {
        const answer = await step(worker, i);
        if (answer.status === 0 || answer.status >= 500) await sleep(50);
      }
    }),
  );
  return {
    /** Stops the workers after their current request, and waits for them. */
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

/** The writes of the scenarios; each records its answer and, when acknowledged, its effect. */
export async function postComment(
  b: Browser,
  streamerId: number,
  body: string,
  ledger: Ledger,
  tally: Tally,
) {
  const a = tally.record(
    'POST /api/comments',
    await b.post('/api/comments', { streamer_id: streamerId, body }),
  );
  if (a.status === 201 && typeof a.json?.id === 'number') ledger.comment(a.json.id, streamerId);
  return a;
}

/** An administrator's rating; `seq` goes into the notes, so the stored rating tells which it is. */
export async function putRating(
  admin: Browser,
  streamerId: number,
  seq: number,
  ledger: Ledger,
  tally: Tally,
) {
  const score = seq % 11;
  const a = tally.record(
    'PUT /api/streamers',
    await admin.put(`/api/streamers?id=${streamerId}`, {
      r: { s: score, g: 10 - score, a: 5, v: 5, n: 5, ns: 5, o: 5 },
      reward: seq % 131,
      notes: ratingNote(seq),
      status: 'live',
    }),
  );
  if (a.status === 200) ledger.rating(streamerId, seq);
  return a;
}

export async function suggestStreamer(b: Browser, name: string, ledger: Ledger, tally: Tally) {
  const a = tally.record('POST /api/streamers', await b.post('/api/streamers', { name, submitter: 'soak' }));
  if (a.status === 201 && typeof a.json?.id === 'number') ledger.suggestion(a.json.id, name);
  return a;
}

export async function addMember(
  admin: Browser,
  groupId: number,
  login: string,
  role: 'owner' | 'rater',
  ledger: Ledger,
  tally: Tally,
) {
  const a = tally.record(
    'POST /api/rater_groups?members=1',
    await admin.post('/api/rater_groups?members=1', { group_id: groupId, login, role }),
  );
  if (a.status === 200) ledger.member(groupId, login);
  return a;
}
