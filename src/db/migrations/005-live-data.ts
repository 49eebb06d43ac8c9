import type { Kysely } from 'kysely';
import { addChecks } from '../dialect.ts';

/**
 * Live data from the providers (DECISIONS.md "Second wave / Live data"): each streamer's
 * provider_a channel beside its provider_b one, what the last successful check saw, and a
 * miss counter (offline only after two checks in a row that do not show it live); one row
 * of sync state per provider, which every instance can read; and the lease that lets one
 * instance poll at a time.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  const streamers = db.schema.alterTable('streamers');
  await streamers.addColumn('provider_a', 'text', (c) => c.notNull().defaultTo('')).execute();
  await streamers.addColumn('avatar', 'text', (c) => c.notNull().defaultTo('')).execute();
  await streamers.addColumn('viewers', 'integer').execute();
  await streamers.addColumn('live_since', 'text').execute();
  await streamers.addColumn('synced_at', 'text').execute();
  await streamers.addColumn('sync_misses', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await addChecks(db, 'streamers', {
    streamers_viewers_check: `"viewers" is null or "viewers" >= 0`,
    streamers_sync_misses_check: `"sync_misses" >= 0`,
  });

  await db.schema
    .createTable('sync_state')
    .addColumn('provider', 'text', (c) => c.primaryKey())
    .addColumn('last_ok', 'text')
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'text')
    .addColumn('checked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cycle_at', 'text')
    .execute();

  await db.schema
    .createTable('sync_lease')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}
