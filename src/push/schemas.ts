import { Type } from 'typebox';
import {
  errors,
  IdDoc,
  Input,
  Lenient,
  Limit,
  Nullable,
  Ok,
  Param,
  StringEnum,
  Timestamp,
} from '../lib/schemas.ts';
import { PUSH_KINDS, PUSH_LIMITS, PUSH_SERVICE_HOSTS } from '../shared/push.ts';

const Kinds = Type.Array(StringEnum(PUSH_KINDS), {
  minItems: 1,
  maxItems: PUSH_KINDS.length,
  uniqueItems: true,
});

/** A key as the service reads it (push/subscription.ts). */
const KEY = { pattern: PUSH_LIMITS.keyPattern, maxLength: PUSH_LIMITS.keyMax };

export const keySchema = {
  summary:
    "The service's VAPID public key (base64url), the `applicationServerKey` of a browser's subscription",
  response: {
    200: Type.Object(
      { public_key: Type.String({ description: 'P-256 public key, base64url' }) },
      { title: 'PushKey' },
    ),
  },
};

export const subscribeSchema = {
  summary:
    `Subscribe this device: \`endpoint\` https on a known push service (${PUSH_SERVICE_HOSTS.join(', ')}), ` +
    '`keys.p256dh` a 65-byte P-256 point and `keys.auth` 16 bytes (base64url), `kinds` a non-empty subset ' +
    `(default ["live"]); else 400 \`invalid_subscription\`. The same endpoint again replaces its subscription; ` +
    `at most ${PUSH_LIMITS.perUser} per user (the next replaces the oldest)`,
  body: Input(
    {
      endpoint: Lenient(
        Type.String({
          format: 'uri',
          maxLength: PUSH_LIMITS.endpointMax,
          description: "The push service's address for this device",
        }),
      ),
      keys: Lenient(
        Type.Object({
          p256dh: Type.String({ ...KEY, description: "The device's P-256 public key, base64url" }),
          auth: Type.String({ ...KEY, description: 'The auth secret, 16 bytes, base64url' }),
        }),
      ),
      kinds: Lenient({ ...Kinds, description: 'Which notifications this device gets' }),
    },
    ['endpoint', 'keys'],
  ),
  response: {
    201: Type.Object({ ok: Ok.properties.ok, id: Type.Integer({ minimum: 1 }) }, { title: 'Subscribed' }),
    ...errors(400, 401, 403),
  },
};

export const PushSubscriptionItem = Type.Object(
  {
    id: Type.Integer(),
    kinds: Kinds,
    created_at: Timestamp(),
    last_ok_at: Nullable(Timestamp()),
  },
  { title: 'PushSubscription', additionalProperties: false },
);

export const mySubscriptionsSchema = {
  summary: 'Your push subscriptions, newest first (never their endpoint or keys); `before` pages by id',
  querystring: Input({
    limit: Limit(`Default ${PUSH_LIMITS.perUser}`),
    before: Param(IdDoc('Subscriptions with an id below this one')),
  }),
  response: {
    200: Type.Array(PushSubscriptionItem),
    ...errors(400, 401),
  },
};

export const unsubscribeSchema = {
  summary: 'Remove one of your push subscriptions (someone else’s id: 404 `subscription_not_found`)',
  querystring: Input({ id: Param(IdDoc()) }, ['id']),
  response: {
    200: Ok,
    ...errors(400, 401, 403, 404),
  },
};

export const testSchema = {
  summary: 'Send a test message to each of your push subscriptions (202: queued, sent within a minute)',
  response: {
    202: Type.Object(
      { ok: Ok.properties.ok, queued: Type.Integer({ minimum: 0, description: 'Messages queued' }) },
      { title: 'PushTestQueued' },
    ),
    ...errors(401, 403, 429),
  },
};
