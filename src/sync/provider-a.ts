import type { Config } from '../config/config.ts';
import type { Clock } from '../lib/clock.ts';
import { ProviderClient } from './client.ts';
import { countOf, dataList, member, SyncError, textOf, timestampOf } from './http.ts';
import type { BatchAnswer, LiveProvider } from './provider.ts';
import { readTwitchSchedule } from './twitch-schedule.ts';

/**
 * provider_a (Twitch helix): `streams?user_login=..&first=100` for up to 100 logins (the page
 * size defaults to 20, so `first=100` is always sent); only live streams are in the answer.
 * `users?login=..` gives the avatars and the channels' account ids (`id`, a string).
 */
export function providerA(config: Config, clock: Clock): LiveProvider {
  const settings = config.providers.provider_a;
  const client = new ProviderClient(settings, config.providerTimeoutMs, clock, {
    'client-id': settings.clientId,
  });
  return {
    id: 'provider_a',
    batchSize: 100,
    channelPattern: /^[a-z0-9_]{1,25}$/,
    client,
    async check(channels, wantProfiles) {
      const asked = new Set(channels);
      const query = new URLSearchParams(channels.map((c): [string, string] => ['user_login', c]));
      query.set('first', '100');
      const answer: BatchAnswer = { live: new Map(), avatars: new Map(), ids: new Map() };
      for (const item of dataList((await client.get(`/streams?${query}`)).json)) {
        const login = textOf(member(item, 'user_login')).toLowerCase();
        if (!asked.has(login)) {
          throw new SyncError('answered with streams that were not asked for', 'wrong_data');
        }
        if (member(item, 'type') !== 'live') continue;
        answer.live.set(login, {
          game: textOf(member(item, 'game_name')),
          title: textOf(member(item, 'title')),
          viewers: countOf(member(item, 'viewer_count')),
          since: timestampOf(member(item, 'started_at')),
        });
      }
      if (wantProfiles.length > 0) {
        const users = new URLSearchParams(wantProfiles.map((c): [string, string] => ['login', c]));
        for (const user of dataList((await client.get(`/users?${users}`)).json)) {
          const login = textOf(member(user, 'login')).toLowerCase();
          if (!asked.has(login)) continue;
          const image = textOf(member(user, 'profile_image_url'));
          if (/^(https?:|data:image\/)/.test(image)) answer.avatars.set(login, image);
          const id = textOf(member(user, 'id'));
          if (id !== '') answer.ids.set(login, id);
        }
      }
      return answer;
    },
    schedule: (accountId, streamerId, now) => readTwitchSchedule(client, accountId, streamerId, now),
  };
}
