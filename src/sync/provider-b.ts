import type { Config } from '../config/config.ts';
import type { Clock } from '../lib/clock.ts';
import { ProviderClient } from './client.ts';
import { countOf, dataList, member, SyncError, textOf, timestampOf } from './http.ts';
import type { BatchAnswer, LiveProvider } from './provider.ts';

/**
 * provider_b (Kick public v1): `channels?slug=..` in batches of 25 slugs. Kick accepts 50,
 * but larger batches are known to answer with other channels' data (KickDevDocs #321): an
 * answer naming a channel that was not asked for is refused whole. Kick has no avatars here.
 */
export function providerB(config: Config, clock: Clock): LiveProvider {
  const client = new ProviderClient(config.providers.provider_b, config.providerTimeoutMs, clock);
  return {
    id: 'provider_b',
    batchSize: 25,
    channelPattern: /^[a-z0-9_-]{1,100}$/,
    client,
    async check(channels) {
      const asked = new Set(channels);
      const query = new URLSearchParams(channels.map((c): [string, string] => ['slug', c]));
      const answer: BatchAnswer = { live: new Map(), avatars: new Map(), ids: new Map() };
      for (const item of dataList((await client.get(`/channels?${query}`)).json)) {
        const slug = textOf(member(item, 'slug')).toLowerCase();
        if (!asked.has(slug)) {
          throw new SyncError(
            "answered with channels that were not asked for (Kick's known wrong-data answer); batch ignored",
            'wrong_data',
          );
        }
        // Every channel's account id (an integer at Kick), live or not (issue 26).
        const id = member(item, 'broadcaster_user_id');
        if (typeof id === 'number' && Number.isSafeInteger(id)) answer.ids.set(slug, String(id));
        else if (typeof id === 'string' && /^\d+$/.test(id)) answer.ids.set(slug, id);
        const stream = member(item, 'stream');
        if (member(stream, 'is_live') !== true) continue;
        answer.live.set(slug, {
          game: textOf(member(member(item, 'category'), 'name')),
          title: textOf(member(item, 'stream_title')),
          viewers: countOf(member(stream, 'viewer_count')),
          since: timestampOf(member(stream, 'start_time')),
        });
      }
      return answer;
    },
  };
}
