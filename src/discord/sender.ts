import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/schema.ts';
import type { LoggedEvent } from '../events/log.ts';
import {
  type Answer,
  EVERY_LANE,
  MAX_RETRY_AFTER_MS,
  type OutboxChannel,
  retryAfterMs as retryAfterHeader,
} from '../delivery/channel.ts';
import { DAY } from '../lib/clock.ts';
import { SITE_NAME } from '../shared/site.ts';
import type { DiscordEvent } from '../shared/rules.ts';
import { type PostResult, postJson } from './http.ts';
import {
  type Delivery,
  disableWebhook,
  dueDeliveries,
  type EventEmbed,
  failPending,
  loadDeliveries,
  queueDeliveries,
} from './queries.ts';

/** A send gives up waiting for Discord's answer after this long. */
export const SEND_TIMEOUT_MS = 10_000;
/** The waits before the 3 retries of a delivery that fails otherwise than by 429, 404 or 401. */
export const RETRY_WAITS_MS = [1000, 2000, 4000] as const;
/** Webhooks posted to side by side (each one message at a time). */
const IN_FLIGHT = 32;
/** A busy service's pace (delivery/channel.ts): Discord's own limits allow about as much. */
const GIVE_WAY_PER_SECOND = 50;

/** Queues the log's Discord messages, in the log's order. */
async function queueFromLog(trx: Db, events: LoggedEvent[], now: string): Promise<void> {
  for (const event of events) {
    const { kind, embed } = JSON.parse(event.data) as { kind: DiscordEvent; embed: EventEmbed };
    await queueDeliveries(trx, kind, [embed], now);
  }
}

/** The body Discord's "execute webhook" takes (DECISIONS.md "Reaching out"). */
export function discordBody(embed: EventEmbed, baseUrl: string): string {
  const { path, ...rest } = embed;
  return JSON.stringify({
    username: SITE_NAME,
    embeds: [
      {
        title: rest.title,
        url: baseUrl + path,
        description: rest.description,
        color: rest.color,
        timestamp: rest.timestamp,
      },
    ],
  });
}

/** A 429's wait: the JSON body's `retry_after` (seconds), else `Retry-After`; 1 s when neither. */
export function retryAfterMs(headers: IncomingHttpHeaders, body: string, now: number): number {
  try {
    const parsed = JSON.parse(body) as { retry_after?: unknown };
    if (typeof parsed.retry_after === 'number' && parsed.retry_after >= 0) {
      return Math.min(Math.ceil(parsed.retry_after * 1000), MAX_RETRY_AFTER_MS);
    }
  } catch {
    // not JSON: the header decides
  }
  return retryAfterHeader(headers['retry-after'], now);
}

/** Discord's message from an error answer, short, or the status alone. */
function reasonOf(status: number, body: string): string {
  let message = '';
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string') message = parsed.message.slice(0, 200);
  } catch {
    // not JSON
  }
  return message ? `Discord answered ${status}: ${message}` : `Discord answered ${status}`;
}

/** What Discord's answer to one post means. */
async function answerOf(
  db: Db,
  log: FastifyBaseLogger,
  d: Delivery,
  result: PostResult,
  now: Date,
): Promise<Answer> {
  if (result.kind === 'no-answer') {
    // The request left and no answer came: it may have been posted. Never twice.
    if (result.sent) return { kind: 'final', state: 'unknown', error: `no answer (${result.error})` };
    return { kind: 'retry', error: `could not reach Discord (${result.error})` };
  }
  const { status, headers, body } = result;
  const lane = String(d.webhook_id);
  if (status >= 200 && status < 300) {
    // Discord's bucket: with nothing left, wait for its reset before the next send.
    const resetAfter = Number(headers['x-ratelimit-reset-after']);
    if (headers['x-ratelimit-remaining'] === '0' && resetAfter > 0) {
      return { kind: 'sent', pause: { lane, ms: Math.ceil(resetAfter * 1000) } };
    }
    return { kind: 'sent' };
  }
  if (status === 429) {
    const wait = retryAfterMs(headers, body, now.getTime());
    const global = /"global"\s*:\s*true/.test(body) || headers['x-ratelimit-global'] === 'true';
    return {
      kind: 'wait',
      error: reasonOf(status, body),
      ms: wait,
      pause: { lane: global ? EVERY_LANE : lane, ms: wait },
    };
  }
  if (status === 404 || status === 401) {
    const reason = reasonOf(status, body);
    log.warn(
      `discord: webhook ${d.webhook_id}: ${reason}; the webhook is disabled and nothing more is sent to it`,
    );
    await disableWebhook(db, d.webhook_id, reason, now.toISOString());
    return { kind: 'final', state: 'failed', error: reason, gone: true };
  }
  return { kind: 'retry', error: reasonOf(status, body) };
}

/**
 * Discord as a channel of the outbox deliverer (delivery/): each `discord` event of the
 * log becomes one outbox row per webhook that asked for its kind. Each webhook is a lane: its
 * deliveries go one at a time, oldest first, while different webhooks go side by side. A 429
 * waits for `retry_after` (its webhook, or every webhook when the limit is global); 404 and
 * 401 disable the webhook; a post that left and got no answer may have arrived, so it is never
 * sent again.
 */
export function discordChannel(opts: {
  log: FastifyBaseLogger;
  /** Makes the embeds' page paths absolute. */
  baseUrl: string;
  timeoutMs?: number;
}): OutboxChannel<Delivery> {
  const timeoutMs = opts.timeoutMs ?? SEND_TIMEOUT_MS;
  return {
    name: 'discord',
    table: 'discord_outbox',
    events: ['discord'],
    retryWaitsMs: RETRY_WAITS_MS,
    staleAfterMs: timeoutMs + 5000,
    keptForMs: 7 * DAY,
    inFlight: IN_FLIGHT,
    giveWayPerSecond: GIVE_WAY_PER_SECOND,
    oneAtATime: true,
    fromLog: (trx, events, now) => queueFromLog(trx, events, now.toISOString()),
    due: (db, now, limit, skip) => dueDeliveries(db, now, limit, skip),
    load: loadDeliveries,
    async send(db, d, now) {
      if (d.disabled_reason !== null) {
        await failPending(db, d.webhook_id, 'the webhook is disabled', now.toISOString());
        return { kind: 'final', state: 'failed', error: 'the webhook is disabled', gone: true };
      }
      const embed = JSON.parse(d.payload) as EventEmbed;
      const result = await postJson(d.url, discordBody(embed, opts.baseUrl), timeoutMs);
      return answerOf(db, opts.log, d, result, now);
    },
  };
}
