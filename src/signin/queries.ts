import type { Db } from '../db/schema.ts';

export const DEBUG_STATE = '__debug__';
export const STATE_TTL_MS = 10 * 60_000;

/** Deletes state records older than 10 minutes (SPEC.md: at each provider_b sign-in start). */
export async function purgeStates(db: Db, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - STATE_TTL_MS).toISOString();
  await db.deleteFrom('oauth_states').where('created_at', '<', cutoff).execute();
}

/** Stores a state and its verifier, replacing the verifier when the state exists. */
export async function saveState(db: Db, state: string, provider: string, verifier: string, now: Date) {
  const created_at = now.toISOString();
  await db
    .insertInto('oauth_states')
    .values({ state, provider, verifier, created_at })
    .onConflict((oc) => oc.column('state').doUpdateSet({ verifier, provider, created_at }))
    .execute();
}

/**
 * Takes a state record for use: returns its verifier and deletes it, or undefined when it is
 * absent or older than 10 minutes (an expired record counts as absent even before a purge).
 */
export async function takeState(db: Db, state: string, provider: string, now: Date) {
  if (state === DEBUG_STATE) return undefined;
  const row = await db
    .selectFrom('oauth_states')
    .select(['id', 'verifier', 'created_at'])
    .where('state', '=', state)
    .where('provider', '=', provider)
    .executeTakeFirst();
  if (!row) return undefined;
  const deleted = await db.deleteFrom('oauth_states').where('id', '=', row.id).executeTakeFirst();
  // Someone else took it first: usable once.
  if (Number(deleted.numDeletedRows) === 0) return undefined;
  if (now.getTime() - Date.parse(row.created_at) > STATE_TTL_MS) return undefined;
  return row.verifier;
}

export async function saveDebug(db: Db, diagnostic: unknown, now: Date): Promise<void> {
  await saveState(db, DEBUG_STATE, 'provider_b', JSON.stringify(diagnostic), now);
}

export async function readDebug(db: Db): Promise<unknown> {
  const row = await db
    .selectFrom('oauth_states')
    .select('verifier')
    .where('state', '=', DEBUG_STATE)
    .executeTakeFirst();
  if (!row) return null;
  try {
    return JSON.parse(row.verifier) as unknown;
  } catch {
    return null;
  }
}

export async function recentStates(db: Db, limit = 5) {
  return db
    .selectFrom('oauth_states')
    .select(['state', 'provider', 'created_at'])
    .where('state', '!=', DEBUG_STATE)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
