import type { AppContext } from '../context.ts';
import type { Db } from '../db/schema.ts';
import { writeTransaction } from '../db/transaction.ts';
import { rememberAddress } from '../sessions/addresses.ts';
import { upsertUser, type ProviderProfile } from './queries.ts';

/**
 * A sign-in through a provider (SPEC.md's upsert), one write: it can make a streamer verified
 * (issue 26), so it moves the content version as every write does. A new account of
 * a banned person is banned; a new account whose first sign-in comes from an address a ban
 * remembers is held (its comments wait for staff, DECISIONS.md "Moderators' tools"). The
 * address is remembered for a later ban.
 */
export function signIn(ctx: AppContext, profile: ProviderProfile, guestTag: string) {
  return writeTransaction(ctx.database, (trx) => signInUser(trx, profile, guestTag, ctx.clock.now()));
}

async function signInUser(db: Db, profile: ProviderProfile, guestTag: string, now: Date) {
  const at = now.toISOString();
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where('provider', '=', profile.provider)
    .where('provider_id', '=', profile.provider_id)
    .executeTakeFirst();
  const user = await upsertUser(db, profile, at);
  if (!existing) {
    const tombstone = await db
      .selectFrom('ban_tombstones')
      .select('id')
      .where('provider', '=', profile.provider)
      .where('provider_id', '=', profile.provider_id)
      .executeTakeFirst();
    const returning =
      !tombstone &&
      (await db
        .selectFrom('ban_addresses')
        .select('id')
        .where('guest_tag', '=', guestTag)
        .where('expires_at', '>', at)
        .executeTakeFirst());
    if (tombstone) await db.updateTable('users').set({ banned: 1 }).where('id', '=', user.id).execute();
    else if (returning) await db.updateTable('users').set({ held: 1 }).where('id', '=', user.id).execute();
  }
  await rememberAddress(db, user.id, guestTag, at);
  return user;
}
