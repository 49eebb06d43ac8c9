import type { Db } from '../db/schema.ts';
import { type Answer, type OutboxChannel, retryAfterMs } from '../delivery/channel.ts';
import { DAY } from '../lib/clock.ts';
import { loadWebPush } from '../lib/lazy-modules.ts';
import { PUSH_LIMITS } from '../shared/push.ts';
import type { VapidKeys } from './keys.ts';
import { notificationPayload, type PushPayload } from './message.ts';
import {
  type Claimed,
  createdIn,
  dueMessages,
  loadMessages,
  noteOk,
  queueNotifications,
  removeSubscription,
} from './outbox.ts';
import { postMessage, type PushResult } from './http.ts';

/** Tries of one message that fails otherwise than by 404, 410 or 429: the first and 3 more. */
export const MAX_ATTEMPTS = 4;
/** The waits before the 3 retries: growing, all within the minute a message has. */
export const RETRY_WAITS_MS = [2_000, 10_000, 30_000] as const;
/** Messages in flight at once. */
const IN_FLIGHT = 32;
/** A busy service's pace (delivery/channel.ts): a go-live's followers hear within minutes even so. */
export const PUSH_GIVE_WAY_PER_SECOND = 50;
/** Headers of every message (DECISIONS.md): an hour to live; `live` is urgent. */
export const PUSH_TTL_SECONDS = 3600;
/**
 * A VAPID signature (RFC 8292) is a JWT valid for 12 hours (web-push's `exp`); one per push
 * service is made and used for an hour of the app's clock, not one per message: making it
 * (the key to PEM, an ES256 signature) was most of a message's work on the event loop.
 */
export const VAPID_RENEW_MS = 3600_000;
/** Push services signed for at once (FCM, Mozilla, Apple, Microsoft: a handful). */
const SIGNED_SERVICES = 64;

/** The `Authorization` of a message to `endpoint`: the push service's kept signature, or a new one. */
function vapidSigner(subject: string) {
  const made = new Map<string, { authorization: string; at: number; publicKey: string }>();
  return (endpoint: string, keys: VapidKeys, now: Date): string => {
    const audience = new URL(endpoint).origin;
    const kept = made.get(audience);
    const age = kept ? now.getTime() - kept.at : -1;
    if (kept && kept.publicKey === keys.publicKey && age >= 0 && age < VAPID_RENEW_MS)
      return kept.authorization;
    const headers = loadWebPush().getVapidHeaders(
      audience,
      subject,
      keys.publicKey,
      keys.privateKey,
      'aes128gcm',
    );
    if (made.size >= SIGNED_SERVICES) made.clear();
    made.set(audience, {
      authorization: headers.Authorization,
      at: now.getTime(),
      publicKey: keys.publicKey,
    });
    return headers.Authorization;
  };
}

export interface PushChannelOptions {
  baseUrl: string;
  subject: string;
  keys: () => Promise<VapidKeys>;
  timeoutMs: number;
}

/** What the push service's answer to one message means. */
async function answerOf(db: Db, m: Claimed, result: PushResult, now: Date): Promise<Answer> {
  if (result.kind === 'no-answer') return { kind: 'retry', error: `no answer (${result.error})` };
  const { status, headers } = result;
  // The subscription's last success is noted with the message's outcome (`settled`).
  if (status >= 200 && status < 300) return { kind: 'sent' };
  if (status === 404 || status === 410) {
    // The device unsubscribed or the subscription expired: it goes, with its messages (this one too).
    await removeSubscription(db, m.subscription_id);
    return { kind: 'final', state: 'failed', error: `the push service answered ${status}`, gone: true };
  }
  if (status === 429) {
    const wait = retryAfterMs(headers['retry-after'], now.getTime());
    return {
      kind: 'wait',
      error: `the push service answered 429`,
      ms: wait,
      pause: { lane: m.origin, ms: wait },
    };
  }
  return { kind: 'retry', error: `the push service answered ${status}` };
}

/**
 * Push as a channel of the outbox deliverer (delivery/): the log's `notification`
 * events' new notifications become one outbox row per subscription that asked for the kind;
 * up to IN_FLIGHT messages go at once, signed (VAPID) and encrypted (aes128gcm). 404 and 410
 * delete the subscription; a 429 pauses its push service for Retry-After; a notification
 * hidden or deleted before its message went sends nothing.
 */
export function pushChannel(opts: PushChannelOptions): OutboxChannel<Claimed> {
  if (RETRY_WAITS_MS.length !== MAX_ATTEMPTS - 1) throw new Error('push: one wait before each retry');
  const authorization = vapidSigner(opts.subject);
  return {
    name: 'push',
    table: 'push_outbox',
    events: ['notification'],
    retryWaitsMs: RETRY_WAITS_MS,
    staleAfterMs: opts.timeoutMs + 5000,
    keptForMs: PUSH_LIMITS.sentKeptDays * DAY,
    inFlight: IN_FLIGHT,
    giveWayPerSecond: PUSH_GIVE_WAY_PER_SECOND,
    oneAtATime: false,
    fromLog: async (trx, events, now) => {
      await queueNotifications(trx, createdIn(events), now.toISOString());
    },
    due: dueMessages,
    load: loadMessages,
    settled: (trx, sent, now) => noteOk(trx, [...new Set(sent.map((m) => m.subscription_id))], now),
    async send(db, m, now) {
      const payload: PushPayload | null =
        m.payload !== null ? (JSON.parse(m.payload) as PushPayload) : notificationPayload(m, opts.baseUrl);
      if (payload === null) {
        return { kind: 'final', state: 'skipped', error: 'the notification is no longer shown' };
      }
      const keys = await opts.keys();
      const details = loadWebPush().generateRequestDetails(
        { endpoint: m.endpoint, keys: { p256dh: m.p256dh, auth: m.auth } },
        JSON.stringify(payload),
        {
          headers: { Authorization: authorization(m.endpoint, keys, now) },
          TTL: PUSH_TTL_SECONDS,
          urgency: payload.kind === 'live' ? 'high' : 'normal',
          contentEncoding: 'aes128gcm',
        },
      );
      const result = await postMessage(m.endpoint, details.headers, details.body, opts.timeoutMs);
      return answerOf(db, m, result, now);
    },
  };
}
