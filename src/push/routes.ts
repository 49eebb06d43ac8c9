import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { fail } from '../errors.ts';
import { keepAnswer } from '../idempotency/keep.ts';
import { parseId } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { pageLimit } from '../lib/schemas.ts';
import { limit } from '../plugins/rate-limits.ts';
import { PUSH_LIMITS } from '../shared/push.ts';
import { testPayload } from './message.ts';
import { mayPush, PUSH_ROLES } from './policy.ts';
import { listSubscriptions } from './queries.ts';
import {
  keySchema,
  mySubscriptionsSchema,
  subscribeSchema,
  testSchema,
  unsubscribeSchema,
} from './schemas.ts';
import { queueTestMessages, subscribe, unsubscribe } from './subscribe.ts';
import { parseSubscription } from './subscription.ts';

/** DECISIONS.md "Fifth wave" → "Push notifications": the key, a user's subscriptions, a test message. */
export const pushRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config } = app;
  const write = { guard: PUSH_ROLES.write, contribution: true } as const;

  app.get('/api/push/key', { config: { guard: PUSH_ROLES.key }, schema: keySchema }, async () => ({
    public_key: (await app.vapidKeys()).publicKey,
  }));

  app.post(
    '/api/push/subscriptions',
    { config: { ...write, idempotencyKey: true }, schema: subscribeSchema },
    async (request, reply) => {
      const user = request.viewer.user;
      if (!mayPush(request.viewer) || !user) throw fail('banned');
      const sub = parseSubscription(request.body, config.push.serviceUrl);
      if (!sub) throw fail('invalid_subscription');
      return reply.code(201).send(await subscribe(app.ctx, user.id, sub, keepAnswer(request, reply, 201)));
    },
  );

  app.get(
    '/api/push/subscriptions',
    { config: { guard: PUSH_ROLES.mine }, schema: mySubscriptionsSchema },
    async (request, reply) => {
      const user = request.viewer.user;
      if (!user) throw fail('not_logged_in');
      const { query } = request;
      reply.header('cache-control', 'no-store');
      return listSubscriptions(db, user.id, {
        limit: pageLimit(query.limit, PUSH_LIMITS.perUser),
        before: parseId(query.before),
      });
    },
  );

  app.delete('/api/push/subscriptions', { config: write, schema: unsubscribeSchema }, async (request) => {
    const user = request.viewer.user;
    if (!mayPush(request.viewer) || !user) throw fail('banned');
    const id = parseId(request.query.id);
    if (id === null) throw fail('missing_id');
    if (!(await unsubscribe(app.ctx, user.id, id))) throw fail('subscription_not_found');
    return { ok: true as const };
  });

  app.post(
    '/api/push/test',
    { config: { ...write, idempotencyKey: true, ...limit('push_test') }, schema: testSchema },
    async (request, reply) => {
      const user = request.viewer.user;
      if (!mayPush(request.viewer) || !user) throw fail('banned');
      const payload = JSON.stringify(testPayload(config.baseUrl));
      const answer = await queueTestMessages(app.ctx, user.id, payload, keepAnswer(request, reply, 202));
      void app.push.look();
      return reply.code(202).send(answer);
    },
  );

  methodNotAllowed(app, '/api/push/key', ['GET']);
  methodNotAllowed(app, '/api/push/subscriptions', ['GET', 'POST', 'DELETE']);
  methodNotAllowed(app, '/api/push/test', ['POST']);
};
