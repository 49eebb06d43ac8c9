import { call, client, type SyncAnswer } from './api.ts';

export type { SyncAnswer };

let pending: Promise<SyncAnswer> | null = null;

/** Live sync per provider (`GET /api/sync`, administrator only), read once per page load unless `fresh`. */
export function loadSync(fresh = false): Promise<SyncAnswer> {
  if (fresh || !pending) {
    pending = call(client.GET('/api/sync'));
    pending.catch(() => (pending = null));
  }
  return pending;
}
