import { createHash } from 'node:crypto';
import type { Batch } from './batched.ts';
import { ascending } from '../lib/order.ts';

/**
 * The advisory locks a group commit takes as it begins (db/batched.ts `Batch.locks`).
 */

/** An advisory lock's key for a name (`Batch.locks`): 64 bits of its digest. */
export const advisoryKey = (name: string): bigint =>
  createHash('sha256').update(`streamer_rating:${name}`).digest().readBigInt64BE(0);

/** The statement that takes a group's locks (`Batch.locks`), in one order for every group; null: none. */
export function lockStatement(
  writes: readonly { batch: Batch<unknown, unknown>; input: unknown }[],
): string | null {
  const inputs = new Map<Batch<unknown, unknown>, unknown[]>();
  for (const { batch, input } of writes) {
    if (batch.locks) inputs.set(batch, [...(inputs.get(batch) ?? []), input]);
  }
  const parts: string[] = [];
  // One order of the batches too (by their condition): two groups never take each other's
  // locks of two kinds the other way round.
  const batches = [...inputs].sort(([a], [b]) => ascending(a.locks?.when ?? '', b.locks?.when ?? ''));
  for (const [batch, of] of batches) {
    const keys = [...new Set(batch.locks?.keys(of) ?? [])].sort(ascending);
    // Integers only: written into the statement, which takes no parameters (it begins the group).
    if (keys.length > 0) {
      parts.push(`select pg_advisory_xact_lock(k) from unnest(cast('{${keys.join(',')}}' as bigint[])) as u(k)
        where ${batch.locks?.when ?? 'true'}`);
    }
  }
  return parts.length > 0 ? parts.join('; ') : null;
}
