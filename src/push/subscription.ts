import { isP256Point } from '../lib/p256.ts';
import { PUSH_KINDS, PUSH_LIMITS, PUSH_SERVICE_HOSTS, type PushKind } from '../shared/push.ts';

/** A subscription as the browser gives it, checked. */
export interface NewSubscription {
  endpoint: string;
  origin: string;
  p256dh: string;
  auth: string;
  kinds: PushKind[];
}

const BASE64URL = new RegExp(PUSH_LIMITS.keyPattern);

/** A base64url text (padding allowed) decoded, or null. */
function decoded(value: unknown): Buffer | null {
  if (typeof value !== 'string' || !BASE64URL.test(value) || value.length > PUSH_LIMITS.keyMax) return null;
  return Buffer.from(value.replace(/=+$/, ''), 'base64url');
}

/** A known host; a `*.` one's subdomain has no empty label (`.notify.windows.com` resolves nowhere). */
const knownHost = (host: string) =>
  !host.split('.').includes('') &&
  PUSH_SERVICE_HOSTS.some((h) => (h.startsWith('*.') ? host.endsWith(h.slice(1)) : host === h));

/**
 * The endpoint's origin when it is `https://` on a known push service host (no user, no other
 * port), or starts with PUSH_SERVICE_URL when that is set, as written and once normalised: the
 * only addresses the service ever posts to (also its guard against being sent elsewhere). Null
 * otherwise.
 */
export function endpointOrigin(value: unknown, serviceUrl: string | null): string | null {
  if (typeof value !== 'string' || value.length > PUSH_LIMITS.endpointMax) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  // Also once read as the request will read it: `..` segments would leave PUSH_SERVICE_URL's path.
  if (serviceUrl !== null && value.startsWith(serviceUrl) && url.href.startsWith(new URL(serviceUrl).href)) {
    return url.origin;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return null;
  return knownHost(url.hostname) ? url.origin : null;
}

/**
 * `{endpoint, keys: {p256dh, auth}, kinds}` checked (DECISIONS.md "Fifth wave" → "Push
 * notifications"): a known endpoint, `p256dh` a 65-byte P-256 point, `auth` 16 bytes, `kinds`
 * a non-empty subset of the four (`["live"]` when left out). Null for anything else.
 */
export function parseSubscription(body: unknown, serviceUrl: string | null): NewSubscription | null {
  if (typeof body !== 'object' || body === null) return null;
  const { endpoint, keys, kinds } = body as Record<string, unknown>;
  const origin = endpointOrigin(endpoint, serviceUrl);
  if (origin === null || typeof endpoint !== 'string') return null;
  if (typeof keys !== 'object' || keys === null) return null;
  const { p256dh, auth } = keys as Record<string, unknown>;
  const point = decoded(p256dh);
  const secret = decoded(auth);
  if (!point || !isP256Point(point.toString('base64url')) || secret?.length !== 16) return null;
  let chosen: PushKind[] = [...PUSH_LIMITS.defaultKinds];
  if (kinds !== undefined) {
    if (!Array.isArray(kinds) || kinds.length === 0) return null;
    if (!kinds.every((k): k is PushKind => PUSH_KINDS.includes(k as PushKind))) return null;
    chosen = PUSH_KINDS.filter((k) => kinds.includes(k));
  }
  return {
    endpoint: storedEndpoint(endpoint, origin),
    origin,
    p256dh: point.toString('base64url'),
    auth: secret.toString('base64url'),
    kinds: chosen,
  };
}

/**
 * The endpoint as its row keeps it: the scheme and host as the URL reads them (lowercase, as a
 * host is case-insensitive: `FCM.googleapis.com` is one endpoint with `fcm.googleapis.com`, one
 * row), the rest as given (a push service's path is its own).
 */
function storedEndpoint(endpoint: string, origin: string): string {
  const authority = /^[a-z][a-z\d+.-]*:\/\/[^/\\?#]*/i.exec(endpoint)?.[0];
  return authority === undefined ? endpoint : origin + endpoint.slice(authority.length);
}

/** Kinds as a row keeps them: each enclosed by spaces, so SQL finds one with `like '% live %'`. */
export const kindsColumn = (kinds: readonly PushKind[]): string => ` ${kinds.join(' ')} `;

export const kindsOf = (column: string): PushKind[] => PUSH_KINDS.filter((k) => column.includes(` ${k} `));
