import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DomainError, fail } from '../errors.ts';
import { parseId, truthy } from '../lib/input.ts';
import { pageLimit } from '../lib/schemas.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { NOTIFICATION_LIMITS } from '../shared/notifications.ts';
import { markNotificationsRead } from './mark-read.ts';
import { listNotifications, unreadCount } from './queries.ts';
import { listSchema, markSchema } from './schemas.ts';
import { NOTIFICATION_ROLES } from './policy.ts';

const invalid = (field: string) => new DomainError('invalid_field', { message: `Invalid ${field}` });

/** The ids of `{read: [ids]}`: 1 to 100 ids, else null. */
function idsOf(value: unknown): number[] | null {
  if (!Array.isArray(value) || value.length < 1 || value.length > NOTIFICATION_LIMITS.readIds) return null;
  const ids = value.map(parseId);
  return ids.every((id): id is number => id !== null) ? [...new Set(ids)] : null;
}

/** DECISIONS.md "Fourth wave" → "Notifications": a signed-in user's list and read marks. */
export const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;
  const own = { guard: NOTIFICATION_ROLES.own };

  app.get('/api/notifications', { config: own, schema: listSchema }, async (request, reply) => {
    const user = request.viewer.user;
    if (!user) throw fail('not_logged_in');
    const { query } = request;
    const limit = pageLimit(query.limit, NOTIFICATION_LIMITS.listDefault);
    // Side by side: on PostgreSQL two connections of the pool, one round trip of waiting, not two.
    const [items, unread] = await Promise.all([
      listNotifications(db, user.id, { limit, before: parseId(query.before) }),
      unreadCount(db, user.id),
    ]);
    reply.header('cache-control', 'no-store');
    return { unread, items };
  });

  app.put('/api/notifications', { config: own, schema: markSchema }, async (request) => {
    const user = request.viewer.user;
    if (!user) throw fail('not_logged_in');
    const { body } = request;
    const all = truthy(body.all);
    const ids = all ? null : idsOf(body.read);
    if (!all && ids === null) throw invalid('read');
    const unread = await markNotificationsRead(app.ctx, user.id, ids);
    return { ok: true as const, unread };
  });

  methodNotAllowed(app, '/api/notifications', ['GET', 'PUT']);
};
