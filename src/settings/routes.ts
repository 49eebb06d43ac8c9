import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf, audit } from '../audit/queries.ts';
import { writeTransaction } from '../db/transaction.ts';
import { testEmbed } from '../discord/events.ts';
import { delivery, enqueueTest, replaceWebhooks, shownWebhooks, storedWebhooks } from '../discord/queries.ts';
import {
  cutWebhookUrl,
  isWebhookUrl,
  parseWebhookList,
  type WebhookInput,
  webhookPrefixes,
} from '../discord/webhooks.ts';
import { DomainError, fail } from '../errors.ts';
import { keepAnswer } from '../idempotency/keep.ts';
import { parseId, truthy } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { OK } from '../lib/schemas.ts';
import { SITE_NAME } from '../lib/site.ts';
import { DISCORD_EVENTS, GUEST_CHALLENGES, GUEST_HOLDS } from '../shared/rules.ts';
import { operatorInput } from './operator.ts';
import { authRequiredToComment, guestChallenge, guestHold, operatorOf, setSetting } from './queries.ts';
import { mayChangeSettings, SETTINGS_ROLES } from './policy.ts';
import { deliverySchema, getSchema, operatorSchema, putSchema, testSendSchema } from './schemas.ts';

/**
 * DECISIONS.md: the public `auth_enabled` setting, and the administrator's Discord webhooks
 * ("Reaching out"), whose URLs only the administrator sees, cut.
 */
export const settingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, database, clock } = app;
  const prefixes = webhookPrefixes(app.config.discordApiUrl);

  app.get('/api/settings', { config: { guard: SETTINGS_ROLES.read }, schema: getSchema }, async (request) => {
    const shown = {
      auth_enabled: await authRequiredToComment(db),
      guest_hold: await guestHold(db),
      guest_challenge: await guestChallenge(db),
    };
    if (!request.viewer.isAdmin) return shown;
    return { ...shown, discord_webhooks: await shownWebhooks(db) };
  });

  // The operator's name and contact (issue 30, item 22) for the privacy page: an answer of their
  // own, so that GET /api/settings keeps exactly the contract's members.
  app.get(
    '/api/settings/operator',
    { config: { guard: SETTINGS_ROLES.read }, schema: operatorSchema },
    async () => operatorOf(db),
  );

  app.put('/api/settings', { config: { guard: mayChangeSettings }, schema: putSchema }, async (request) => {
    const { body } = request;
    const { guest_hold, guest_challenge } = body;
    if (
      body.auth_enabled === undefined &&
      body.discord_webhooks === undefined &&
      guest_hold === undefined &&
      guest_challenge === undefined &&
      body.operator_name === undefined &&
      body.operator_contact === undefined
    ) {
      throw fail('missing_auth_enabled');
    }
    const choice = <W extends string>(field: string, value: unknown, words: readonly W[]): W | null => {
      if (value === undefined || value === null) return null;
      const word = words.find((w) => w === value);
      if (word === undefined) throw new DomainError('invalid_field', { message: `Invalid ${field}` });
      return word;
    };
    const hold = choice('guest_hold', guest_hold, GUEST_HOLDS);
    const challenge = choice('guest_challenge', guest_challenge, GUEST_CHALLENGES);
    const operator = operatorInput(body);
    const webhooks = body.discord_webhooks === undefined ? null : parseWebhookList(body.discord_webhooks);
    const value = truthy(body.auth_enabled) ? 'true' : 'false';
    const now = clock.now().toISOString();
    await writeTransaction(database, async (trx) => {
      const actor = actorOf(request.viewer, clock.now());
      if (body.auth_enabled !== undefined) {
        await setSetting(trx, 'auth_enabled', value);
        await audit(trx, actor, {
          action: 'settings.update',
          params: { key: 'auth_enabled', value: value === 'true' },
        });
      }
      if (hold !== null) {
        await setSetting(trx, 'guest_hold', hold);
        await audit(trx, actor, { action: 'settings.update', params: { key: 'guest_hold', value: hold } });
      }
      if (challenge !== null) {
        await setSetting(trx, 'guest_challenge', challenge);
        await audit(trx, actor, {
          action: 'settings.update',
          params: { key: 'guest_challenge', value: challenge },
        });
      }
      if (operator.name !== undefined || operator.contact !== undefined) {
        if (operator.name !== undefined) await setSetting(trx, 'operator_name', operator.name);
        if (operator.contact !== undefined) await setSetting(trx, 'operator_contact', operator.contact);
        // The entry names the operator as now set: both texts are public on the privacy page.
        const set = await operatorOf(trx);
        await audit(trx, actor, {
          action: 'settings.operator',
          params: { name: set.operator_name, contact: set.operator_contact },
        });
      }
      if (webhooks === null) return;
      // Each item names a stored webhook (its full URL, or the cut one an answer showed) or a new URL.
      const stored = await storedWebhooks(trx);
      const resolved = webhooks.map((input) => {
        const same = stored.find((w) => w.url === input.url);
        if (same) return { input, id: same.id, reenable: true };
        const shown = stored.find((w) => cutWebhookUrl(w.url) === input.url);
        if (shown) return { input, id: shown.id, reenable: false };
        if (!isWebhookUrl(input.url, prefixes)) throw fail('invalid_webhook_url');
        return { input, id: null, reenable: false };
      });
      await replaceWebhooks(trx, mergeRepeats(resolved), now);
      // The audit record names how many and which events, never a URL (a secret).
      await audit(trx, actor, {
        action: 'settings.discord',
        params: { webhooks: resolved.map((r) => ({ id: r.id, events: r.input.events })) },
      });
    });
    return OK;
  });

  app.post(
    '/api/settings/discord/test',
    { config: { guard: mayChangeSettings, idempotencyKey: true }, schema: testSendSchema },
    async (request, reply) => {
      const id = parseId(request.body.id);
      if (id === null) throw fail('missing_id');
      const webhook = (await storedWebhooks(db)).find((w) => w.id === id);
      if (!webhook) throw fail('webhook_not_found');
      if (webhook.disabled_reason !== null) throw fail('webhook_disabled');
      const now = clock.now().toISOString();
      const keep = keepAnswer(request, reply, 202);
      const answer = await writeTransaction(
        database,
        async (trx) => {
          const deliveryId = await enqueueTest(trx, id, testEmbed(SITE_NAME, now), now);
          return keep(trx, { ok: true as const, delivery_id: deliveryId });
        },
        'content',
      );
      void app.discord.look();
      return reply.code(202).send(answer);
    },
  );

  app.get(
    '/api/settings/discord/test',
    { config: { guard: mayChangeSettings }, schema: deliverySchema },
    async (request) => {
      const id = parseId(request.query.delivery_id);
      if (id === null) throw fail('missing_id');
      const found = await delivery(db, id);
      if (!found) throw fail('delivery_not_found');
      return { state: found.state, error: found.last_error };
    },
  );

  methodNotAllowed(app, '/api/settings', ['GET', 'PUT']);
  methodNotAllowed(app, '/api/settings/operator', ['GET']);
  methodNotAllowed(app, '/api/settings/discord/test', ['GET', 'POST']);
};

/** The same webhook listed twice is one webhook with both lists of events. */
function mergeRepeats<T extends { input: WebhookInput; id: number | null }>(list: T[]): T[] {
  const byKey = new Map<string, T>();
  for (const item of list) {
    const key = item.id === null ? `url:${item.input.url}` : `id:${item.id}`;
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, item);
    else {
      const both = [...seen.input.events, ...item.input.events];
      seen.input.events = DISCORD_EVENTS.filter((e) => both.includes(e));
    }
  }
  return [...byKey.values()];
}
