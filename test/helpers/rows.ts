import type { Insertable } from 'kysely';
import type { StreamersTable } from '../../src/db/schema/streamers.ts';

/**
 * A streamer row written straight to the database, for seeding hundreds at once or a schema
 * before a migration: offline, unrated, added by the administrator, its `name_key` the lower
 * case (no `name_fold`: the columns every migration since the first has). `extra` sets the rest.
 */
export const streamerRow = (
  name: string,
  createdAt: string,
  extra: Partial<Insertable<StreamersTable>> = {},
) => ({
  name,
  name_key: name.toLowerCase(),
  platform: 'provider_a' as const,
  kick_name: '',
  status: 'offline' as const,
  game: '',
  title: '',
  evaluated: 0,
  community_locked: 0,
  added_by: 'admin' as const,
  submitter: '',
  created_at: createdAt,
  ...extra,
});
