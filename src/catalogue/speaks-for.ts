import { sql } from 'kysely';
import { isSqlite } from '../db/dialect.ts';
import type { Db, Streamer, User } from '../db/schema.ts';
import { channelOf } from '../shared/rules.ts';

/**
 * Who speaks for a streamer (issue 26, DECISIONS.md "Streamers speak for themselves"), written
 * once: every answer that says so (`verified`, `speaks_for`, `is_streamer`, the right of reply,
 * and later the notifications of kind `rated`) asks these functions.
 *
 * A user speaks for a streamer when the user's provider is the streamer's platform, the user's
 * folded login is the streamer's channel there and, once live sync has learnt the channel's
 * account id for that very channel, the user's provider id is that id. Logins move at the
 * providers (a rename, a re-registered login): two stored accounts may carry the same login.
 * Then only the one that signed in last speaks (the provider vouched for its login latest; on
 * a tie the newer account); if that one is banned, nobody does. So at most one account ever
 * speaks for a streamer.
 */

/** What of a streamer the rule reads. */
export type Channel = Pick<
  Streamer,
  'id' | 'name' | 'platform' | 'provider_a' | 'kick_name' | 'account_id' | 'account_channel'
>;
/** What of a user the rule reads. */
export type Voice = Pick<User, 'id' | 'provider' | 'provider_id' | 'login' | 'banned' | 'last_seen'>;

export const CHANNEL_COLUMNS = [
  'streamers.id',
  'streamers.name',
  'streamers.platform',
  'streamers.provider_a',
  'streamers.kick_name',
  'streamers.account_id',
  'streamers.account_channel',
] as const;

const VOICE_COLUMNS = ['id', 'provider', 'provider_id', 'login', 'banned', 'last_seen'] as const;

/** The streamer's channel on its platform, lower-cased (the second wave's channel rule). */
export const channelName = (s: Pick<Channel, 'name' | 'platform' | 'provider_a' | 'kick_name'>): string =>
  channelOf(s.name, s.platform === 'provider_a' ? s.provider_a : s.kick_name);

/** What an account id is learnt for: `<platform>:<channel>`. */
export const channelKey = (s: Pick<Channel, 'name' | 'platform' | 'provider_a' | 'kick_name'>): string =>
  `${s.platform}:${channelName(s)}`;

/** The account id live sync learnt for the streamer's current channel, or null. */
export const learntAccountId = (s: Channel): string | null =>
  s.account_id !== null && s.account_channel === channelKey(s) ? s.account_id : null;

/** A login folded as the rule compares it: lower-cased and trimmed. */
export const foldLogin = (login: string): string => login.trim().toLowerCase();

/** The id of the one user who speaks for the streamer among `voices`, or null. */
export function speakerOf(s: Channel, voices: readonly Voice[]): number | null {
  const channel = channelName(s);
  const accountId = learntAccountId(s);
  let best: Voice | null = null;
  for (const u of voices) {
    if (u.provider !== s.platform || foldLogin(u.login) !== channel) continue;
    if (accountId !== null && u.provider_id !== accountId) continue;
    if (best === null || u.last_seen > best.last_seen || (u.last_seen === best.last_seen && u.id > best.id)) {
      best = u;
    }
  }
  return best !== null && !best.banned ? best.id : null;
}

/**
 * The users whose login could be one of these channels: login_key is the login lower-cased
 * (trimmed here, read through migration 036's index on that expression); the rule itself
 * (speakerOf) decides.
 */
export const voicesQuery = (db: Db, channels: readonly string[]) =>
  db
    .selectFrom('users')
    .select(VOICE_COLUMNS)
    .where((eb) =>
      isSqlite(db)
        ? eb(eb.fn<string>('trim', ['login_key']), 'in', channels)
        : // One array parameter: one text (one prepared statement) whatever the number of channels.
          eb(eb.fn<string>('trim', ['login_key']), '=', sql<string>`any(cast(${[...channels]} as text[]))`),
    );

/** The users whose login could be one of these streamers' channels. */
async function voicesFor(db: Db, streamers: readonly Channel[]): Promise<Voice[]> {
  const channels = [...new Set(streamers.map(channelName))];
  const voices: Voice[] = [];
  for (let i = 0; i < channels.length; i += 500) {
    voices.push(...(await voicesQuery(db, channels.slice(i, i + 500)).execute()));
  }
  return voices;
}

/** Who speaks for each of these streamers: streamer id to user id (absent: nobody). */
export async function speakersOf(db: Db, streamers: readonly Channel[]): Promise<Map<number, number>> {
  const voices = await voicesFor(db, streamers);
  const speakers = new Map<number, number>();
  for (const s of streamers) {
    const speaker = speakerOf(s, voices);
    if (speaker !== null) speakers.set(s.id, speaker);
  }
  return speakers;
}

/** Who speaks for each of the streamers with these ids: streamer id to user id. */
export async function speakersOfIds(db: Db, ids: readonly number[]): Promise<Map<number, number>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const streamers = await db
    .selectFrom('streamers')
    .select(CHANNEL_COLUMNS)
    .where('id', 'in', unique)
    .execute();
  return speakersOf(db, streamers);
}

/** The user who speaks for one streamer, or null (also when there is no such streamer). */
export async function speakerOfStreamer(db: Db, streamerId: number): Promise<number | null> {
  const s = await db
    .selectFrom('streamers')
    .select(CHANNEL_COLUMNS)
    .where('id', '=', streamerId)
    .executeTakeFirst();
  if (!s) return null;
  return (await speakersOf(db, [s])).get(s.id) ?? null;
}

/** Whether the user speaks for the streamer. */
export async function speaksFor(db: Db, userId: number, streamerId: number): Promise<boolean> {
  return (await speakerOfStreamer(db, streamerId)) === userId;
}

/** The streamers the user speaks for, ids ascending (the current-user answer's `speaks_for`). */
export async function streamersSpokenFor(db: Db, userId: number): Promise<number[]> {
  const user = await db.selectFrom('users').select(VOICE_COLUMNS).where('id', '=', userId).executeTakeFirst();
  if (!user || user.banned) return [];
  const login = foldLogin(user.login);
  const mine = (
    await db.selectFrom('streamers').select(CHANNEL_COLUMNS).where('platform', '=', user.provider).execute()
  ).filter((s) => channelName(s) === login);
  const speakers = await speakersOf(db, mine);
  return mine
    .filter((s) => speakers.get(s.id) === userId)
    .map((s) => s.id)
    .sort((a, b) => a - b);
}

/** Comment items (or any items by a user) marked with whether their author speaks for their streamer. */
export async function markStreamers<T extends { user_id: number | null }>(
  db: Db,
  streamerIds: readonly number[],
  items: T[],
): Promise<(T & { is_streamer: boolean })[]> {
  const speakers = await speakersOfIds(db, streamerIds);
  return items.map((item, i) => ({
    ...item,
    is_streamer: item.user_id !== null && speakers.get(streamerIds[i] ?? 0) === item.user_id,
  }));
}
