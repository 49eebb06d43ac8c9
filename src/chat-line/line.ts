import {
  codePointLength,
  foldChannel,
  type Provider,
  scoreSum,
  streamerPath,
  TOTAL_MAX,
} from '../shared/rules.ts';
import { BOT_PLATFORMS } from '../shared/chat-line.ts';
import { channelName } from '../catalogue/speaks-for.ts';
import type { StreamerItem } from '../streamers/schemas.ts';

/**
 * A line for the chat (DECISIONS.md "Fifth wave"): what a chat bot's fetch command says of a
 * streamer, from the streamer's item of the Public view, with the definitions the other
 * answers use: the total of the seven scores out of 70 (the feeds, the badge), the audience
 * score as the items carry it (one decimal, half up) and the page's address (BASE_URL and
 * `streamerPath`, as the feeds and Discord write it).
 */

/** Chat bots show at most this many characters (Nightbot's limit). */
export const LINE_MAX = 400;

export const LANGUAGES = ['cs', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The platforms as the bots' addresses name them (shared/chat-line.ts). */
export const PLATFORMS: ReadonlyMap<string, Provider> = new Map(
  (Object.entries(BOT_PLATFORMS) as [Provider, string][]).map(([provider, name]) => [name, provider]),
);

const WORDS: Record<Language, { audience: string; votes: string; noVotes: string }> = {
  cs: { audience: 'publikum', votes: 'hlasů', noVotes: 'publikum bez hlasů' },
  en: { audience: 'audience', votes: 'votes', noVotes: 'audience no votes yet' },
};

/** `?lang=en` is English; anything else the site's language, Czech. */
export const languageOf = (lang: string | null | undefined): Language => (lang === 'en' ? 'en' : 'cs');

/** The first `n` code points of `s`. */
const firstCodePoints = (s: string, n: number): string => Array.from(s).slice(0, Math.max(0, n)).join('');

/**
 * The line: `<name>: <total>/70 · publikum <score>/10 (<votes> hlasů) · <page address>`. Over
 * 400 characters (a long BASE_URL with a long name) the name is cut with `…`, so the address
 * stays whole; if even that is too long, the line is cut at 400.
 */
export function chatLine(item: StreamerItem, lang: Language, baseUrl: string): string {
  const w = WORDS[lang];
  const audience =
    item.audience_score === null
      ? w.noVotes
      : `${w.audience} ${item.audience_score}/10 (${item.audience_votes} ${w.votes})`;
  const rest = `: ${scoreSum(item.r)}/${TOTAL_MAX} · ${audience} · ${baseUrl}${streamerPath(item.id, item.name)}`;
  const line = item.name + rest;
  if (codePointLength(line) <= LINE_MAX) return line;
  const room = LINE_MAX - codePointLength(rest) - 1;
  return room > 0 ? `${firstCodePoints(item.name, room)}…${rest}` : firstCodePoints(line, LINE_MAX);
}

/**
 * The streamers of the Public view by `<provider>:<folded channel>`. A streamer is found by its
 * channel on its own platform (the second wave's channel rule: the stored login or slug, else
 * its name), and also by a channel stored for the other platform (a streamer on both); the
 * first rule wins, then the lowest id.
 */
export function channelIndex(items: readonly StreamerItem[]): Map<string, StreamerItem> {
  const byId = [...items].sort((a, b) => a.id - b.id);
  const index = new Map<string, StreamerItem>();
  const add = (provider: Provider, channel: string, item: StreamerItem) => {
    const key = `${provider}:${channel}`;
    if (channel !== '' && !index.has(key)) index.set(key, item);
  };
  for (const s of byId) add(s.platform, channelName(s), s);
  for (const s of byId) {
    if (s.platform !== 'provider_a') add('provider_a', foldChannel(s.provider_a), s);
    if (s.platform !== 'provider_b') add('provider_b', foldChannel(s.kick_name), s);
  }
  return index;
}

/** The key of a bot's address in the index: its platform and its channel, folded; null for another platform. */
export function channelKeyOf(platform: string, channel: string): string | null {
  const provider = PLATFORMS.get(platform);
  return provider === undefined ? null : `${provider}:${foldChannel(channel)}`;
}
