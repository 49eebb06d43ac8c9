import type { DiscordOutboxTable, Db } from '../db/schema.ts';
import type { DiscordEvent } from '../shared/rules.ts';
import { cutWebhookUrl, formatEvents, parseEvents, type WebhookInput } from './webhooks.ts';
import type { Selectable } from 'kysely';
import { inIds } from '../db/dialect.ts';

/** An event as stored in the outbox: the embed, whose `path` becomes a URL from BASE_URL when sent. */
export type { EventEmbed } from '../db/event-log.ts';
import { type EventEmbed, publish } from '../db/event-log.ts';

/** A webhook as the administrator sees it: the URL's token cut. */
export interface ShownWebhook {
  id: number;
  url: string;
  events: DiscordEvent[];
  disabled_reason: string | null;
}

export async function shownWebhooks(db: Db): Promise<ShownWebhook[]> {
  const rows = await db.selectFrom('discord_webhooks').selectAll().orderBy('id').execute();
  return rows.map((r) => ({
    id: r.id,
    url: cutWebhookUrl(r.url),
    events: parseEvents(r.events),
    disabled_reason: r.disabled_reason,
  }));
}

/**
 * Replaces the webhooks with `list`, where each item has been resolved to a stored webhook
 * (`id`) or a new URL. Webhooks left out are deleted with their queued events; a stored one
 * given again by its full URL is enabled again (the administrator's "try again").
 */
export async function replaceWebhooks(
  trx: Db,
  list: { input: WebhookInput; id: number | null; reenable: boolean }[],
  now: string,
): Promise<void> {
  const kept = list.flatMap((w) => (w.id === null ? [] : [w.id]));
  let removed = trx.deleteFrom('discord_webhooks');
  if (kept.length > 0) removed = removed.where('id', 'not in', kept);
  await removed.execute();
  for (const { input, id, reenable } of list) {
    const events = formatEvents(input.events);
    if (id !== null) {
      await trx
        .updateTable('discord_webhooks')
        .set({ events, ...(reenable ? { disabled_reason: null } : {}) })
        .where('id', '=', id)
        .execute();
    } else {
      await trx
        .insertInto('discord_webhooks')
        .values({ url: input.url, events, disabled_reason: null, created_at: now })
        .onConflict((oc) => oc.column('url').doUpdateSet({ events, disabled_reason: null }))
        .execute();
    }
  }
}

export async function storedWebhooks(db: Db) {
  return db.selectFrom('discord_webhooks').select(['id', 'url', 'disabled_reason']).orderBy('id').execute();
}

/**
 * Inside a write: tells Discord of `embeds` (one message each) through the event log
 * (db/event-log.ts): they exist exactly when the change that causes them was committed, and
 * the Discord deliverer (sender.ts, over delivery/deliverer.ts) queues them for the webhooks that asked for `event`.
 */
export function tellDiscord(trx: Db, event: DiscordEvent, embeds: EventEmbed[]): void {
  publish(
    trx,
    embeds.map((embed) => ({ type: 'discord', kind: event, embed })),
  );
}

/**
 * Queues messages of one kind for every enabled webhook that asked for it (the deliverer's
 * step from the log to the outbox, in its transaction); answers how many deliveries it queued.
 */
export async function queueDeliveries(
  trx: Db,
  event: DiscordEvent,
  embeds: EventEmbed[],
  now: string,
): Promise<number> {
  if (embeds.length === 0) return 0;
  const hooks = await trx
    .selectFrom('discord_webhooks')
    .select(['id', 'events'])
    .where('disabled_reason', 'is', null)
    .execute();
  const targets = hooks.filter((h) => parseEvents(h.events).includes(event));
  if (targets.length === 0) return 0;
  await trx
    .insertInto('discord_outbox')
    .values(embeds.flatMap((embed) => targets.map((h) => outboxRow(h.id, event, embed, now))))
    .execute();
  return targets.length * embeds.length;
}

/** A test message for one webhook (the administrator's test-send); its delivery id. */
export async function enqueueTest(
  db: Db,
  webhookId: number,
  embed: EventEmbed,
  now: string,
): Promise<number> {
  const row = await db
    .insertInto('discord_outbox')
    .values(outboxRow(webhookId, 'test', embed, now))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

function outboxRow(webhookId: number, event: DiscordOutboxTable['event'], embed: EventEmbed, now: string) {
  return {
    webhook_id: webhookId,
    event,
    payload: JSON.stringify(embed),
    not_before: now,
    created_at: now,
  };
}

export type OutboxRow = Selectable<DiscordOutboxTable>;

export async function delivery(db: Db, id: number) {
  return db
    .selectFrom('discord_outbox')
    .select(['id', 'state', 'last_error'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Due deliveries outside the webhooks in `skip`, oldest first, each with its webhook as its
 * lane (delivery/deliverer.ts sends one at a time per webhook).
 */
export async function dueDeliveries(
  db: Db,
  now: string,
  limit: number,
  skip: readonly string[],
  webhookId?: number,
) {
  let due = db
    .selectFrom('discord_outbox')
    .select(['id', 'webhook_id'])
    .where('state', '=', 'pending')
    .where('not_before', '<=', now);
  const busy = skip.map(Number);
  if (busy.length > 0) due = due.where('webhook_id', 'not in', busy);
  if (webhookId !== undefined) due = due.where('webhook_id', '=', webhookId);
  const rows = await due.orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ id: r.id, lane: String(r.webhook_id) }));
}

/** Claimed deliveries with their webhook. */
export async function loadDeliveries(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('discord_outbox')
    .innerJoin('discord_webhooks', 'discord_webhooks.id', 'discord_outbox.webhook_id')
    .select([
      'discord_outbox.id',
      'discord_outbox.webhook_id',
      'discord_outbox.event',
      'discord_outbox.payload',
      'discord_outbox.attempts',
      'discord_webhooks.url',
      'discord_webhooks.disabled_reason',
    ])
    .where(inIds(db, 'discord_outbox.id', ids))
    .orderBy('discord_outbox.id')
    .execute();
}

export type Delivery = Awaited<ReturnType<typeof loadDeliveries>>[number];

/** Discord says the webhook is gone or its token wrong: nothing more is sent to it. */
export async function disableWebhook(db: Db, webhookId: number, reason: string, now: string): Promise<void> {
  await db
    .updateTable('discord_webhooks')
    .set({ disabled_reason: reason })
    .where('id', '=', webhookId)
    .where('disabled_reason', 'is', null)
    .execute();
  await failPending(db, webhookId, 'the webhook is disabled', now);
}

export async function failPending(db: Db, webhookId: number, error: string, now: string): Promise<void> {
  await db
    .updateTable('discord_outbox')
    .set({ state: 'failed', last_error: error, finished_at: now })
    .where('webhook_id', '=', webhookId)
    .where('state', '=', 'pending')
    .execute();
}
