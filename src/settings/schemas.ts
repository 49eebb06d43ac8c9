import { type Static, Type } from 'typebox';
import { errors, Lenient, Nullable, Ok, Param, StringEnum } from '../lib/schemas.ts';
import { DISCORD_EVENTS, MAX_WEBHOOKS } from '../shared/rules.ts';

/** A Discord webhook as the administrator sees it (DECISIONS.md "Reaching out"). */
export const WebhookItem = Type.Object({
  /** For the test-send (`POST /api/settings/discord/test`). */
  id: Type.Integer(),
  /** The URL with its token cut to the first 6 characters; PUT takes it back to keep the webhook. */
  url: Type.String(),
  events: Type.Array(StringEnum(DISCORD_EVENTS)),
  /** Why nothing is sent to it any more (Discord answered 404 or 401), or null. */
  disabled_reason: Nullable(Type.String()),
});
export type WebhookItem = Static<typeof WebhookItem>;

export const SettingsAnswer = Type.Object({
  auth_enabled: Type.Boolean(),
  /** The administrator only. */
  discord_webhooks: Type.Optional(Type.Array(WebhookItem)),
});
export type SettingsAnswer = Static<typeof SettingsAnswer>;

export const getSchema = {
  summary: 'Settings: `{auth_enabled}`, and for an administrator `discord_webhooks` too',
  response: { 200: SettingsAnswer },
};
export const putSchema = {
  summary: 'Change `auth_enabled` and/or `discord_webhooks` (administrator)',
  description:
    `\`discord_webhooks\` replaces the list: at most ${MAX_WEBHOOKS} items \`{url, events}\`. A new \`url\` must ` +
    'start with `https://discord.com/api/webhooks/` or `https://discordapp.com/api/webhooks/` (or ' +
    'DISCORD_API_URL). The cut URL that GET shows keeps a stored webhook as it is; its full URL given ' +
    `again enables a disabled one again. \`events\`: a subset of ${DISCORD_EVENTS.join(', ')} (all when left out).`,
  body: Type.Object({ auth_enabled: Lenient(), discord_webhooks: Lenient() }),
  response: { 200: Ok, ...errors(400, 401) },
};

export const testSendSchema = {
  summary: 'Queue a test message to one Discord webhook (administrator)',
  description:
    'Answers at once with the delivery id; the message is sent after the answer like every other ' +
    'event, so `GET /api/settings/discord/test?delivery_id=N` tells what came of it.',
  body: Type.Object({ id: Lenient() }),
  response: {
    202: Type.Object({ ok: Type.Unsafe<true>({ type: 'boolean' }), delivery_id: Type.Integer() }),
    ...errors(400, 401, 404, 409),
  },
};

export const DeliveryAnswer = Type.Object({
  /**
   * `pending` (queued, or waiting for a rate limit or a retry), `sending`, `sent`, `failed`
   * (given up, or the webhook is disabled) or `unknown` (no answer came: it may have arrived).
   */
  state: StringEnum(['pending', 'sending', 'sent', 'failed', 'unknown'] as const),
  error: Nullable(Type.String()),
});
export type DeliveryAnswer = Static<typeof DeliveryAnswer>;

export const deliverySchema = {
  summary: 'What came of a test message (administrator)',
  querystring: Type.Object({ delivery_id: Param() }),
  response: { 200: DeliveryAnswer, ...errors(400, 401, 404) },
};
