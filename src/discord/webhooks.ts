import { DomainError, fail } from '../errors.ts';
import {
  DISCORD_EVENTS,
  type DiscordEvent,
  MAX_WEBHOOK_EVENTS,
  MAX_WEBHOOKS,
  WEBHOOK_TOKEN_SHOWN,
} from '../shared/rules.ts';

/**
 * Webhook URLs as the administrator gives them (DECISIONS.md "Reaching out"): where they may
 * point, how they are shown (the token cut), and the list a PUT /api/settings carries.
 */

const DISCORD_PREFIXES = ['https://discord.com/api/webhooks/', 'https://discordapp.com/api/webhooks/'];
/** Discord's own addresses: `<id>/<token>`, optionally a query such as `?thread_id=1`. */
const DISCORD_TAIL = /^\d{1,30}\/[A-Za-z0-9_-]{1,200}(\?[A-Za-z0-9_=&-]{0,200})?$/;
/** A fake's addresses (DISCORD_API_URL): path segments and an optional query. */
const OTHER_TAIL = /^\/?[A-Za-z0-9_~-]+(\/[A-Za-z0-9_~-]+)*\/?(\?[A-Za-z0-9_=&-]{0,200})?$/;
const MAX_URL = 600;

/** Where webhook URLs may point: Discord, and DISCORD_API_URL when it is set. */
export function webhookPrefixes(discordApiUrl: string | null): string[] {
  return discordApiUrl ? [...DISCORD_PREFIXES, discordApiUrl] : DISCORD_PREFIXES;
}

export function isWebhookUrl(url: string, prefixes: readonly string[]): boolean {
  if (url.length > MAX_URL) return false;
  for (const prefix of prefixes) {
    if (!url.startsWith(prefix)) continue;
    const tail = url.slice(prefix.length);
    const ok = DISCORD_PREFIXES.includes(prefix)
      ? DISCORD_TAIL.test(tail)
      : (prefix.endsWith('/') || /^[/?]/.test(tail)) && OTHER_TAIL.test(tail);
    if (ok && URL.canParse(url)) return true;
  }
  return false;
}

/**
 * The URL as an answer may show it: the token (the last path segment) cut to its first 6
 * characters, no query. The rest of the token never leaves the database but to Discord.
 */
export function cutWebhookUrl(url: string): string {
  const parsed = new URL(url);
  const segments = parsed.pathname.split('/');
  let last = segments.length - 1;
  while (last > 0 && segments[last] === '') last--;
  segments[last] = (segments[last] ?? '').slice(0, WEBHOOK_TOKEN_SHOWN);
  return parsed.origin + segments.slice(0, last + 1).join('/');
}

export const formatEvents = (events: readonly DiscordEvent[]): string => events.join(',');

export const parseEvents = (stored: string): DiscordEvent[] =>
  DISCORD_EVENTS.filter((e) => stored.split(',').includes(e));

/** One item of a PUT's `discord_webhooks`: a new URL, or the shown (cut) URL of a stored one. */
export interface WebhookInput {
  url: string;
  events: DiscordEvent[];
}

const invalidEvents = () => new DomainError('invalid_field', { message: 'Invalid events' });

/**
 * Checks the shape of `discord_webhooks`: at most 5 objects, each with a text `url` and an
 * optional `events` list of known names (all four when left out; repeats counted once). Whether
 * a URL is acceptable is decided with the stored webhooks (settings/routes.ts).
 */
export function parseWebhookList(value: unknown): WebhookInput[] {
  if (!Array.isArray(value)) throw new DomainError('invalid_field', { message: 'Invalid discord_webhooks' });
  if (value.length > MAX_WEBHOOKS) throw fail('too_many_webhooks');
  return value.map((item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw fail('invalid_webhook_url');
    const { url, events } = item as { url?: unknown; events?: unknown };
    if (typeof url !== 'string') throw fail('invalid_webhook_url');
    if (events === undefined) return { url: url.trim(), events: [...DISCORD_EVENTS] };
    if (!Array.isArray(events) || events.length > MAX_WEBHOOK_EVENTS) throw invalidEvents();
    for (const e of events) if (!DISCORD_EVENTS.includes(e as DiscordEvent)) throw invalidEvents();
    return { url: url.trim(), events: DISCORD_EVENTS.filter((e) => events.includes(e)) };
  });
}
