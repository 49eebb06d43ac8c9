import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { fail } from '../errors.ts';
import { text, truthy } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { OK } from '../lib/schemas.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { deleteOwnAccount } from './delete.ts';
import { accountData } from './queries.ts';
import { deleteSchema, exportSchema } from './schemas.ts';
import { mayManageOwnAccount } from './policy.ts';

/**
 * DECISIONS.md "Your data": a signed-in user exports or deletes what the service keeps about
 * them. A banned user may too (their data stays theirs), so the routes let a banned user's
 * session through and read the user from the session rather than the viewer.
 */
export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app;
  const accountOf = (request: {
    sessionUser: { id: number; login: string; provider: string; display_name: string } | null;
    viewer: Viewer;
  }) => {
    const user = request.viewer.user ?? (request.viewer.bannedUser ? request.sessionUser : null);
    if (!user) throw fail('not_logged_in');
    return user;
  };

  app.get(
    '/api/account/export',
    { config: { guard: mayManageOwnAccount }, schema: exportSchema },
    async (request, reply) => {
      const user = accountOf(request);
      const data = { exported_at: clock.now().toISOString(), ...(await accountData(db, user.id)) };
      const name = `streamer-rating-${user.login.replace(/[^\w.-]/g, '_') || user.id}.json`;
      return reply
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(data);
    },
  );

  app.delete(
    '/api/account',
    { config: { guard: mayManageOwnAccount }, schema: deleteSchema },
    async (request) => {
      const user = accountOf(request);
      const { body, session } = request;
      await deleteOwnAccount(app.ctx, user, text(body.confirm) ?? '', truthy(body.delete_comments));
      // This browser's session was among those deleted: clear its cookie, write nothing back.
      for (const key of Object.keys(session.data) as (keyof typeof session.data)[]) session.unset(key);
      return OK;
    },
  );

  methodNotAllowed(app, '/api/account', ['DELETE']);
  methodNotAllowed(app, '/api/account/export', ['GET']);
};
