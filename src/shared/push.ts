/**
 * DECISIONS.md "Fifth wave" → "Push notifications": the kinds a device may ask for, and the
 * limits. Pure (the page imports it).
 */
export const PUSH_KINDS = ['live', 'reply', 'mention', 'rated'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

export const PUSH_LIMITS = {
  /** Subscriptions one user keeps; the 11th replaces the oldest. */
  perUser: 10,
  /** Kinds when a subscription names none. */
  defaultKinds: ['live'] as readonly PushKind[],
  /** An endpoint longer than this is not one a push service gives. */
  endpointMax: 2048,
  /** A key (`p256dh`, `auth`): base64url, padding allowed, at most this long. */
  keyMax: 200,
  keyPattern: '^[A-Za-z0-9_-]+={0,2}$',
  /** Days a message's row is kept after it went or was given up. */
  sentKeptDays: 7,
} as const;

/** The push services a subscription's endpoint may point at (https only); `*.` means any subdomain. */
export const PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  'web.push.apple.com',
  '*.notify.windows.com',
] as const;
