import type { Db } from '../db/schema.ts';
import { DAY } from '../lib/clock.ts';

/** How long a ban remembers the addresses the banned user came from (DECISIONS.md). */
export const BAN_MEMORY_MS = 30 * DAY;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A ban kept by the person at the provider, not the account (issue 30, item 1): a tombstone
 * for (provider, provider id) that outlives the user row, and the guest tags the user signed in
 * from in the last 30 days, each remembered for 30 days from now.
 */
export async function rememberBan(
  db: Db,
  user: { id: number; provider: string; provider_id: string },
  now: Date,
): Promise<void> {
  await db
    .insertInto('ban_tombstones')
    .values({ provider: user.provider, provider_id: user.provider_id, created_at: now.toISOString() })
    .onConflict((oc) => oc.columns(['provider', 'provider_id']).doNothing())
    .execute();
  const tombstone = await db
    .selectFrom('ban_tombstones')
    .select('id')
    .where('provider', '=', user.provider)
    .where('provider_id', '=', user.provider_id)
    .executeTakeFirstOrThrow();
  const expires_at = iso(now.getTime() + BAN_MEMORY_MS);
  const tags = await db
    .selectFrom('user_addresses')
    .select('guest_tag')
    .where('user_id', '=', user.id)
    .where('seen_at', '>=', iso(now.getTime() - BAN_MEMORY_MS))
    .execute();
  for (const { guest_tag } of tags) {
    await db
      .insertInto('ban_addresses')
      .values({ tombstone_id: tombstone.id, guest_tag, expires_at })
      .onConflict((oc) => oc.columns(['tombstone_id', 'guest_tag']).doUpdateSet({ expires_at }))
      .execute();
  }
}

/** An unban forgets the person and their addresses. */
export async function forgetBan(db: Db, user: { provider: string; provider_id: string }): Promise<void> {
  await db
    .deleteFrom('ban_tombstones')
    .where('provider', '=', user.provider)
    .where('provider_id', '=', user.provider_id)
    .execute();
}
