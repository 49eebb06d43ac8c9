/**
 * The page's calls for Discord webhooks, share cards and badges (issue 20), all in one place
 * so they move to the generated API client in one step. Types come from the service's schemas.
 */
import type { DeliveryAnswer, SettingsAnswer, WebhookItem } from '../../../src/settings/schemas.ts';
import { badgePath, type DiscordEvent, streamerPath } from '../../../src/shared/rules.ts';
import { api } from './api.ts';

export type Webhook = WebhookItem;
export type Delivery = DeliveryAnswer;
export { DISCORD_EVENTS, MAX_WEBHOOKS, WEBHOOK_TOKEN_SHOWN } from '../../../src/shared/rules.ts';
export type { DiscordEvent };

/** The administrator's webhooks, as GET /api/settings shows them (URLs cut). */
export async function loadWebhooks(): Promise<Webhook[]> {
  return (await api<SettingsAnswer>('GET', '/api/settings')).discord_webhooks ?? [];
}

/**
 * Replaces the list: stored webhooks are named by the cut URL the service showed, a new one by
 * its full URL.
 */
export async function saveWebhooks(list: { url: string; events: DiscordEvent[] }[]): Promise<void> {
  await api('PUT', '/api/settings', { discord_webhooks: list });
}

/** Queues a test message; the delivery id to follow it with. */
export async function testWebhook(id: number): Promise<number> {
  return (await api<{ ok: true; delivery_id: number }>('POST', '/api/settings/discord/test', { id }))
    .delivery_id;
}

export async function deliveryState(deliveryId: number): Promise<Delivery> {
  return api<Delivery>('GET', `/api/settings/discord/test?delivery_id=${deliveryId}`);
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
