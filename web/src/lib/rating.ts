import { call, client, historyOf, type Streamer, streamersOf } from './api.ts';

/**
 * A streamer's rating as it stands, read afresh for a write that changes one thing of it (its
 * name): SPEC.md's rating mode replaces every field it is not given (a missing score or reward
 * is 0, a missing status offline, missing notes none), so such a write sends all of them.
 * `base_at` is the `at` of the last history entry, read before the item: a rating saved after
 * it refuses the write (`rating_changed`) rather than being overwritten by this older one.
 */
export async function currentRating(id: number) {
  const query = { id, all: '1' as const };
  const history = historyOf(
    await call(client.GET('/api/streamers', { params: { query: { ...query, history: '1' } } })),
  );
  const [s] = streamersOf(await call(client.GET('/api/streamers', { params: { query } })));
  if (!s) throw new Error(`streamer ${id} not found`);
  return { ...wholeRating(s), base_at: history.at(-1)?.at ?? null };
}

/** Every field of an administrator's rating-mode PUT, as the item (the Full view's) holds them. */
export const wholeRating = (s: Streamer) => ({
  r: s.r,
  notes: s.notes ?? '',
  reward: s.reward,
  status: s.status,
  game: s.game,
  title: s.title,
  provider_a: s.provider_a,
  provider_b: s.provider_b,
  platform: s.platform,
});
