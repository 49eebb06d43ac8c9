import type { DiscordOutboxTable, Db } from '../db/schema.ts';
import type { DiscordEvent } from '../shared/rules.ts';
import { cutWebhookUrl, formatEvents, parseEvents, type WebhookInput } from './webhooks.ts';
import type { Selectable } from 'kysely';

/** An event as stored in the outbox: the embed, whose `path` becomes a URL from BASE_URL when sent. */
export type { EventEmbed } from '../events/log.ts';
import { type EventEmbed, publish } from '../events/log.ts';

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
 * (events/log.ts): they exist exactly when the change that causes them was committed, and
 * the Discord deliverer (deliver.ts) queues them for the webhooks that asked for `event`.
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

/** Deliveries not sent yet (due now or waiting for a retry). */
export async function pendingDeliveries(db: Db): Promise<number> {
  const row = await db
    .selectFrom('discord_outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Webhooks with a delivery due now, each with its oldest due one's id. */
export async function dueWebhooks(db: Db, now: string): Promise<number[]> {
  const rows = await db
    .selectFrom('discord_outbox')
    .select('webhook_id')
    .where('state', '=', 'pending')
    .where('not_before', '<=', now)
    .groupBy('webhook_id')
    .execute();
  return rows.map((r) => r.webhook_id);
}

/**
 * Claims the webhook's oldest due delivery for `holder`: a conditional update, so of two
 * instances that both believe they may send, only one gets it. Null when there is none.
 */
export async function claimNext(db: Db, webhookId: number, holder: string, now: string) {
  for (;;) {
    const next = await db
      .selectFrom('discord_outbox')
      .innerJoin('discord_webhooks', 'discord_webhooks.id', 'discord_outbox.webhook_id')
      .select([
        'discord_outbox.id',
        'discord_outbox.event',
        'discord_outbox.payload',
        'discord_outbox.attempts',
        'discord_webhooks.url',
        'discord_webhooks.disabled_reason',
      ])
      .where('discord_outbox.webhook_id', '=', webhookId)
      .where('discord_outbox.state', '=', 'pending')
      .where('discord_outbox.not_before', '<=', now)
      .orderBy('discord_outbox.id')
      .limit(1)
      .executeTakeFirst();
    if (!next) return null;
    if (next.disabled_reason !== null) {
      await failPending(db, webhookId, 'the webhook is disabled', now);
      return null;
    }
    const claimed = await db
      .updateTable('discord_outbox')
      .set({ state: 'sending', claimed_by: holder, claimed_at: now, attempts: next.attempts + 1 })
      .where('id', '=', next.id)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 1) return { ...next, attempts: next.attempts + 1 };
  }
}

/** Where a claimed delivery ends up after its send. */
export async function settle(
  db: Db,
  id: number,
  outcome:
    | { state: 'sent' | 'failed' | 'unknown'; error: string | null }
    | { state: 'pending'; error: string | null; notBefore: string; countAttempt: boolean },
  now: string,
): Promise<void> {
  const common = { state: outcome.state, last_error: outcome.error };
  const query = db.updateTable('discord_outbox').where('id', '=', id).where('state', '=', 'sending');
  if (outcome.state === 'pending') {
    await query
      .set((eb) => ({
        ...common,
        claimed_by: null,
        not_before: outcome.notBefore,
        // A 429 is Discord declining to take it yet, not a failed try.
        attempts: outcome.countAttempt ? eb.ref('attempts') : eb('attempts', '-', 1),
      }))
      .execute();
  } else {
    await query.set({ ...common, finished_at: now }).execute();
  }
}

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

async function failPending(db: Db, webhookId: number, error: string, now: string): Promise<void> {
  await db
    .updateTable('discord_outbox')
    .set({ state: 'failed', last_error: error, finished_at: now })
    .where('webhook_id', '=', webhookId)
    .where('state', '=', 'pending')
    .execute();
}

/**
 * Deliveries claimed before `cutoff` and still `sending` were being sent by a process that
 * stopped (or never heard back): they may have reached Discord, so they are never sent again.
 */
export async function abandonStale(db: Db, cutoff: string, now: string): Promise<number> {
  const result = await db
    .updateTable('discord_outbox')
    .set({
      state: 'unknown',
      last_error: 'interrupted while sending: it may have arrived, so it is not sent again',
      finished_at: now,
    })
    .where('state', '=', 'sending')
    .where('claimed_at', '<', cutoff)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Finished deliveries older than `before` are forgotten. */
export async function pruneFinished(db: Db, before: string): Promise<void> {
  await db
    .deleteFrom('discord_outbox')
    .where('state', 'in', ['sent', 'failed', 'unknown'])
    .where('finished_at', '<', before)
    .execute();
}
