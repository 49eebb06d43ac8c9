import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { passwordFromEnvironment } from '../auth/admin-password.ts';
import { delivery, shownWebhooks } from '../discord/queries.ts';
import { fail } from '../errors.ts';
import { keepAnswer } from '../idempotency/keep.ts';
import { parseId } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { OK } from '../lib/schemas.ts';
import { changeSettings } from './change.ts';
import { isStaff } from '../shared/roles.ts';
import {
  authRequiredToComment,
  flagSetting,
  guestChallenge,
  guestHold,
  holdWords,
  operatorOf,
} from './queries.ts';
import { mayChangeSettings, SETTINGS_ROLES } from './policy.ts';
import { queueTestMessage } from './test-send.ts';
import { deliverySchema, getSchema, operatorSchema, putSchema, testSendSchema } from './schemas.ts';

/**
 * DECISIONS.md: the public `auth_enabled` setting, and the administrator's Discord webhooks
 * ("Reaching out"), whose URLs only the administrator sees, cut.
 */
export const settingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;

  app.get('/api/settings', { config: { guard: SETTINGS_ROLES.read }, schema: getSchema }, async (request) => {
    const shown = {
      auth_enabled: await authRequiredToComment(db),
      guest_hold: await guestHold(db),
      guest_challenge: await guestChallenge(db),
      refuse_repeats: await flagSetting(db, 'refuse_repeats'),
      ...(isStaff(request.viewer) ? { hold_words: await holdWords(db) } : {}),
    };
    if (!request.viewer.isAdmin) return shown;
    return { ...shown, discord_webhooks: await shownWebhooks(db) };
  });

  // The operator's name and contact (issue 30, item 22) for the privacy page, and whether the site
  // sends e-mail (the account page asks for no mail settings it would be refused): an answer of
  // their own, so that GET /api/settings keeps exactly the contract's members.
  app.get(
    '/api/settings/operator',
    { config: { guard: SETTINGS_ROLES.read }, schema: operatorSchema },
    async (request) => ({
      ...(await operatorOf(db)),
      mail: app.config.mail !== null,
      // Whether the password form can work, told to whoever would use it (a walk: it said so only after a try).
      ...(mayChangeSettings(request.viewer)
        ? { password_from_environment: passwordFromEnvironment(app.config) }
        : {}),
    }),
  );

  app.put('/api/settings', { config: { guard: mayChangeSettings }, schema: putSchema }, async (request) => {
    await changeSettings(app.ctx, request.viewer, request.body);
    return OK;
  });

  app.post(
    '/api/settings/discord/test',
    { config: { guard: mayChangeSettings, idempotencyKey: true }, schema: testSendSchema },
    async (request, reply) => {
      const id = parseId(request.body.id);
      if (id === null) throw fail('missing_id');
      const answer = await queueTestMessage(app.ctx, id, keepAnswer(request, reply, 202));
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
