import type { Provider } from '../shared/rules.ts';
import type { ReadSchedule } from '../schedules/queries.ts';
import type { ProviderClient } from './client.ts';

/** What a check saw of one live channel. */
export interface LiveStream {
  game: string;
  title: string;
  viewers: number;
  since: string | null;
}

/**
 * One batch's answer: the channels seen live (by lower-cased channel); every other channel of
 * the batch was seen not live. Avatars by channel, where the provider has them.
 */
export interface BatchAnswer {
  live: Map<string, LiveStream>;
  avatars: Map<string, string>;
  /** The channels' account ids at the provider, where the answer carried them (issue 26). */
  ids: Map<string, string>;
}

/** A provider's live-status API behind one small interface (provider-a.ts, provider-b.ts). */
export interface LiveProvider {
  readonly id: Provider;
  /** How many channels one check asks about. */
  readonly batchSize: number;
  /**
   * What a channel on this provider can look like. Others cannot exist there and are not
   * sent: one malformed login would make the provider refuse its whole batch.
   */
  readonly channelPattern: RegExp;
  readonly client: ProviderClient;
  /**
   * Checks up to `batchSize` lower-cased channels, with the avatars and account ids of
   * `wantProfiles` (a subset) where the provider has them (Kick answers every channel's id). Throws a SyncError when anything fails: a batch
   * counts whole or not at all.
   */
  check(channels: string[], wantProfiles: string[]): Promise<BatchAnswer>;
  /**
   * Reads one channel's schedule by its account id, where the provider has a schedule API
   * (Twitch; DECISIONS.md "Schedules"). Throws a SyncError when it fails.
   */
  readonly schedule?: (accountId: string, streamerId: number, now: Date) => Promise<ReadSchedule>;
}
