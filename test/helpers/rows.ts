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

/**
 * A guest's shown comment written straight to the database, for seeding hundreds at once (an
 * export of several hundred KiB); its `repeat_key` null, as on comments stored before migration 033.
 */
export const commentRow = (streamerId: number, body: string, createdAt: string) => ({
  streamer_id: streamerId,
  user_id: null,
  author: 'Guest',
  body,
  is_admin: 0,
  created_at: createdAt,
  hidden_by: null,
  edited_at: null,
  guest_tag: null,
  reply_to: null,
  repeat_key: null,
});
