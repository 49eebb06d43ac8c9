import { type Static, Type } from 'typebox';
import { errors, Field, IdDoc, Input, Lenient, Nullable, Ok, Param, StringEnum } from '../lib/schemas.ts';
import {
  DISCORD_EVENTS,
  MAX_WEBHOOK_EVENTS,
  GUEST_CHALLENGES,
  GUEST_HOLDS,
  HOLD_WORDS,
  MAX_WEBHOOKS,
  OPERATOR_CONTACT_MAX,
  OPERATOR_NAME_MAX,
} from '../shared/rules.ts';

/** A Discord webhook as the administrator sees it (DECISIONS.md "Reaching out"). */
export const Webhook = Type.Object(
  {
    id: Type.Integer({ description: 'For the test-send (`POST /api/settings/discord/test`)' }),
    url: Type.String({
      description:
        'The URL with its token cut to the first 6 characters; PUT takes it back to keep the webhook as it is',
    }),
    events: Type.Array(StringEnum(DISCORD_EVENTS)),
    disabled_reason: Nullable(
      Type.String({ description: 'Why nothing is sent to it any more (Discord answered 404 or 401)' }),
    ),
  },
  { title: 'DiscordWebhook' },
);
export type Webhook = Static<typeof Webhook>;

export const Settings = Type.Object(
  {
    auth_enabled: Type.Boolean({ description: 'Commenting requires sign-in' }),
    guest_hold: StringEnum(GUEST_HOLDS, { description: 'Which guest comments wait for staff' }),
    guest_challenge: StringEnum(GUEST_CHALLENGES, { description: 'When a guest must solve the challenge' }),
    refuse_repeats: Type.Boolean({
      description: "A comment equal to its author's comment of the last 10 minutes is refused (409)",
    }),
    hold_words: Type.Optional(
      Type.Array(Type.String(), {
        description: 'Staff only: words and phrases that hold a comment for staff, in their order',
      }),
    ),
    discord_webhooks: Type.Optional(Type.Array(Webhook, { description: 'The administrator only' })),
  },
  { title: 'Settings' },
);

export const Operator = Type.Object(
  {
    operator_name: Nullable(
      Type.String({ description: 'Who runs the site (the privacy page); null when unset' }),
    ),
    operator_contact: Nullable(
      Type.String({
        description: 'How to reach them: an e-mail address, a URL or other text; null when unset',
      }),
    ),
    mail: Type.Boolean({
      description:
        'Whether the site sends e-mail (SMTP_URL and MAIL_FROM set): the account page offers an address, the ' +
        'privacy page says what is kept of it',
    }),
    password_from_environment: Type.Optional(
      Type.Boolean({
        description:
          'To an administrator only: the shared password is set by ADMIN_PASSWORD or ADMIN_PASSWORD_HASH, so ' +
          'the settings page offers no form to change it (PUT /api/auth/password answers 409)',
      }),
    ),
  },
  { title: 'Operator' },
);

export const operatorSchema = {
  summary:
    'Who runs the site, how to reach them and whether it sends e-mail (the privacy and account pages): ' +
    '`{operator_name, operator_contact, mail}`',
  response: { 200: Operator },
};

export const getSchema = {
  summary:
    'Settings: `{auth_enabled, guest_hold, guest_challenge, refuse_repeats}`, for staff `hold_words` ' +
    'too, and for an administrator `discord_webhooks`',
  response: { 200: Settings },
};

const WebhookInput = Type.Object({
  url: Type.String({
    maxLength: 600,
    description:
      'A new webhook: its full URL, starting with `https://discord.com/api/webhooks/` or ' +
      '`https://discordapp.com/api/webhooks/` (or DISCORD_API_URL). A stored one: the cut URL GET ' +
      'shows (kept as it is), or its full URL again (also enables it again)',
  }),
  events: Type.Optional(
    Type.Array(StringEnum(DISCORD_EVENTS), {
      maxItems: MAX_WEBHOOK_EVENTS,
      description: 'What to send to it; all four when left out',
    }),
  ),
});

export const putSchema = {
  summary:
    'Change `auth_enabled`, `guest_hold`, `guest_challenge`, `refuse_repeats`, `hold_words`, ' +
    '`operator_name`, `operator_contact` and/or the Discord webhooks (`discord_webhooks` replaces the list)',
  body: Input(
    {
      auth_enabled: Lenient(
        Type.Boolean({
          description:
            'On for true, 1, "1" or "true"; off for false, 0, "0", "false", "no", "off", "" or null',
        }),
      ),
      guest_hold: Field(
        'invalid_field',
        StringEnum(GUEST_HOLDS, {
          description:
            'none; links (a guest comment with a link waits for staff); first (links, and a guest address ' +
            'with nothing published yet); all',
        }),
        'guest_hold',
      ),
      guest_challenge: Field(
        'invalid_field',
        StringEnum(GUEST_CHALLENGES, {
          description: 'burst (after 3 guest posts in 60 s, with rate limits on), always or off',
        }),
        'guest_challenge',
      ),
      operator_name: Field(
        'invalid_field',
        Type.String({
          maxLength: OPERATOR_NAME_MAX,
          description: `Who runs the site, plain text on one line, at most ${OPERATOR_NAME_MAX} characters; empty or null unsets it`,
        }),
        'operator_name',
      ),
      operator_contact: Field(
        'invalid_field',
        Type.String({
          maxLength: OPERATOR_CONTACT_MAX,
          description: `How to reach them (an e-mail address or a URL is shown as a link), at most ${OPERATOR_CONTACT_MAX} characters; empty or null unsets it`,
        }),
        'operator_contact',
      ),
      refuse_repeats: Field(
        'invalid_field',
        Type.Boolean({
          description:
            "true: a comment equal to its author's comment of the last 10 minutes, on any streamer, is refused",
        }),
        'refuse_repeats',
      ),
      hold_words: Lenient(
        Type.Array(
          Type.String({
            minLength: HOLD_WORDS.wordMin,
            maxLength: HOLD_WORDS.wordMax,
            description: 'A word or phrase, trimmed',
          }),
          {
            maxItems: HOLD_WORDS.words,
            description:
              'Replaces the list: a comment containing one of these (as a whole word or phrase, whatever ' +
              'letters it is written with) waits for staff; else 400 invalid_word_list',
          },
        ),
      ),
      discord_webhooks: Lenient(
        Type.Array(WebhookInput, { maxItems: MAX_WEBHOOKS, description: `At most ${MAX_WEBHOOKS}` }),
      ),
    },
    [],
    { oneField: true },
  ),
  response: { 200: Ok, ...errors(400, 401) },
};

export const testSendSchema = {
  summary:
    'Queue a test message to one Discord webhook; it is sent after the answer, like every event ' +
    '(follow it with `GET /api/settings/discord/test?delivery_id=N`)',
  body: Input({ id: Lenient(IdDoc('The webhook (`id` in GET /api/settings)')) }, ['id']),
  response: {
    202: Type.Object(
      { ok: Type.Unsafe<true>({ type: 'boolean', const: true }), delivery_id: Type.Integer() },
      { title: 'DiscordTestQueued' },
    ),
    ...errors(400, 401, 404, 409),
  },
};

export const Delivery = Type.Object(
  {
    state: StringEnum(['pending', 'sending', 'sent', 'failed', 'unknown'] as const, {
      description:
        'pending (queued, or waiting for a rate limit or a retry), sending, sent, failed (given up, ' +
        'or the webhook is disabled) or unknown (no answer came: it may have arrived, so it is not sent again)',
    }),
    error: Nullable(Type.String()),
  },
  { title: 'DiscordDelivery' },
);
export type Delivery = Static<typeof Delivery>;

export const deliverySchema = {
  summary: 'What came of a test message',
  querystring: Input({ delivery_id: Param(IdDoc('From the test-send')) }, ['delivery_id']),
  response: { 200: Delivery, ...errors(400, 401, 404) },
};
