import { ConfigError, type EnvReader } from './values.ts';
import { isP256Point } from '../lib/p256.ts';

/** Web Push's settings (DECISIONS.md "Fifth wave" → "Push notifications"). */
export interface PushConfig {
  /** VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (base64url); null: a pair kept in the database. */
  readonly vapidKeys: { readonly publicKey: string; readonly privateKey: string } | null;
  /** VAPID_SUBJECT: `mailto:` or `https:`; `mailto:nobody@<BASE_URL's host>` unless set. */
  readonly vapidSubject: string;
  /** PUSH_SERVICE_URL: endpoints may also start with this (tests point it at a local fake). */
  readonly serviceUrl: string | null;
  /** PUSH_TIMEOUT_MS: how long a send waits for the push service's answer. */
  readonly timeoutMs: number;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function pushConfig(env: EnvReader, baseUrl: string): PushConfig {
  const { get, url, integer } = env;
  const publicKey = get('VAPID_PUBLIC_KEY');
  const privateKey = get('VAPID_PRIVATE_KEY');
  if ((publicKey === undefined) !== (privateKey === undefined)) {
    throw new ConfigError(
      publicKey === undefined ? 'VAPID_PUBLIC_KEY' : 'VAPID_PRIVATE_KEY',
      `must be set with ${publicKey === undefined ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY'} (both or neither)`,
    );
  }
  if (publicKey !== undefined && (!BASE64URL.test(publicKey) || !isP256Point(publicKey))) {
    throw new ConfigError(
      'VAPID_PUBLIC_KEY',
      'must be a P-256 public key in base64url (65 bytes)',
      publicKey,
    );
  }
  if (
    privateKey !== undefined &&
    (!BASE64URL.test(privateKey) || Buffer.from(privateKey, 'base64url').length !== 32)
  ) {
    // The value is a secret: never repeated in the message.
    throw new ConfigError('VAPID_PRIVATE_KEY', 'must be a P-256 private key in base64url (32 bytes)');
  }
  const subject = get('VAPID_SUBJECT') ?? `mailto:nobody@${new URL(baseUrl).hostname}`;
  if (!/^mailto:[^\s@]+@[^\s@]+$/.test(subject) && !/^https:\/\/[^\s]+$/.test(subject)) {
    throw new ConfigError('VAPID_SUBJECT', 'must be a mailto: or https: address', subject);
  }
  return Object.freeze({
    vapidKeys:
      publicKey !== undefined && privateKey !== undefined ? Object.freeze({ publicKey, privateKey }) : null,
    vapidSubject: subject,
    serviceUrl: get('PUSH_SERVICE_URL') === undefined ? null : url('PUSH_SERVICE_URL', ''),
    timeoutMs: integer('PUSH_TIMEOUT_MS', 10_000, 100, 60_000),
  });
}
