/**
 * The page's calls for Discord webhooks, share cards and badges (issue 20), all in one place,
 * through the client generated from the OpenAPI document.
 */
import { badgePath, type DiscordEvent, streamerPath } from '../../../src/shared/rules.ts';
import { call, client } from './api.ts';
import type { components } from './generated/api.ts';

export type Webhook = components['schemas']['DiscordWebhook'];
export type Delivery = components['schemas']['DiscordDelivery'];
export { DISCORD_EVENTS, MAX_WEBHOOKS } from '../../../src/shared/rules.ts';
export type { DiscordEvent };

/** The administrator's webhooks, as GET /api/settings shows them (URLs cut). */
export async function loadWebhooks(): Promise<Webhook[]> {
  return (await call(client.GET('/api/settings'))).discord_webhooks ?? [];
}

/**
 * Replaces the list: stored webhooks are named by the cut URL the service showed, a new one by
 * its full URL.
 */
export async function saveWebhooks(list: { url: string; events: DiscordEvent[] }[]): Promise<void> {
  await call(client.PUT('/api/settings', { body: { discord_webhooks: list } }));
}

/** Queues a test message; the delivery id to follow it with. */
export async function testWebhook(id: number): Promise<number> {
  return (await call(client.POST('/api/settings/discord/test', { body: { id } }))).delivery_id;
}

export async function deliveryState(deliveryId: number): Promise<Delivery> {
  return call(client.GET('/api/settings/discord/test', { params: { query: { delivery_id: deliveryId } } }));
}

/** The absolute addresses of a streamer's badges and page, and what to paste where. */
export function badgeSnippets(origin: string, id: number, name: string, alt: string) {
  const svg = origin + badgePath(id, 'svg');
  const png = origin + badgePath(id, 'png');
  const page = origin + streamerPath(id, name);
  const escape = (s: string) =>
    s.replace(
      /[&<>"']/g,
      (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
    );
  const mdAlt = alt.replace(/([\\[\]])/g, '\\$1');
  return {
    svg,
    png,
    page,
    html: `<a href="${escape(page)}"><img src="${escape(svg)}" alt="${escape(alt)}" height="20"></a>`,
    markdown: `[![${mdAlt}](${svg})](${page})`,
  };
}
