import { adminBrowser } from './http.ts';

/**
 * Every write the service acknowledged (a 2xx answer reached the client). After the run, each
 * must be found through the service's own API: nothing acknowledged may be lost.
 */
export class Ledger {
  /** comment id → its streamer */
  readonly comments = new Map<number, number>();
  /** streamer id → the highest rating sequence number acknowledged (written into the notes) */
  readonly ratings = new Map<number, number>();
  /** suggested streamer id → name */
  readonly suggestions = new Map<number, string>();
  /** `group id:login` of acknowledged member adds */
  readonly members = new Set<string>();

  /** How many writes were acknowledged. */
  acknowledged = 0;

  comment(id: number, streamerId: number) {
    this.acknowledged++;
    this.comments.set(id, streamerId);
  }

  rating(streamerId: number, seq: number) {
    this.acknowledged++;
    if (seq > (this.ratings.get(streamerId) ?? 0)) this.ratings.set(streamerId, seq);
  }

  suggestion(id: number, name: string) {
    this.acknowledged++;
    this.suggestions.set(id, name);
  }

  member(groupId: number, login: string) {
    this.acknowledged++;
    this.members.add(`${groupId}:${login}`);
  }
}

/** The note that carries a rating's sequence number, so the stored rating tells which write it is. */
export const ratingNote = (seq: number) => `soak rating ${seq}`;
const noteSeq = (notes: unknown) =>
  Number(/^soak rating (\d+)$/.exec(typeof notes === 'string' ? notes : '')?.[1] ?? 0);

export interface Verification {
  /** Acknowledged writes not found, described. */
  missing: string[];
  /** Broken invariants (a group with two owners). */
  broken: string[];
}

/** Looks up every acknowledged write through the service's API at `baseUrl`. */
export async function verifyLedger(ledger: Ledger, baseUrl: string): Promise<Verification> {
  const admin = await adminBrowser(baseUrl);
  const missing: string[] = [];
  const broken: string[] = [];
  const must = async (path: string) => {
    const res = await admin.get(path, { timeoutMs: 30_000 });
    if (res.status !== 200)
      throw new Error(`GET ${path} for the check answered ${res.status} ${res.text.slice(0, 200)}`);
    return res.json;
  };

  const byStreamer = new Map<number, number[]>();
  for (const [id, streamer] of ledger.comments)
    byStreamer.set(streamer, [...(byStreamer.get(streamer) ?? []), id]);
  for (const [streamer, ids] of byStreamer) {
    const present = new Set(
      (await must(`/api/comments?streamer_id=${streamer}`)).map((c: { id: number }) => c.id),
    );
    for (const id of ids) if (!present.has(id)) missing.push(`comment ${id} of streamer ${streamer}`);
  }

  if (ledger.ratings.size > 0 || ledger.suggestions.size > 0) {
    const all = new Map<number, { name: string; notes?: string }>(
      (await must('/api/streamers?all=1')).map((s: { id: number }) => [s.id, s]),
    );
    for (const [streamer, seq] of ledger.ratings) {
      const stored = noteSeq(all.get(streamer)?.notes);
      if (stored < seq) missing.push(`rating ${seq} of streamer ${streamer} (stored: ${stored || 'none'})`);
    }
    for (const [id, name] of ledger.suggestions) {
      if (all.get(id)?.name !== name) missing.push(`suggestion ${id} "${name}"`);
    }
  }

  if (ledger.members.size > 0) {
    const present = new Set<string>();
    for (const group of await must('/api/rater_groups')) {
      const members = group.members as { login: string; role: string }[];
      for (const m of members) present.add(`${group.id}:${m.login}`);
      const owners = members.filter((m) => m.role === 'owner').length;
      if (owners > 1) broken.push(`group ${group.id} has ${owners} owners`);
    }
    for (const key of ledger.members) if (!present.has(key)) missing.push(`member ${key}`);
  }
  return { missing, broken };
}
