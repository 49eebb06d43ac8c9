import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf, audit } from '../audit/queries.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import { truthy } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { OK } from '../lib/schemas.ts';
import { authRequiredToComment, setSetting } from './queries.ts';
import { getSchema, putSchema } from './schemas.ts';
import { SETTINGS_ROLES } from './policy.ts';

/** DECISIONS.md: the public `auth_enabled` setting, changed by the administrator. */
export const settingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, database, clock } = app;

  app.get('/api/settings', { config: { guard: SETTINGS_ROLES.read }, schema: getSchema }, async () => ({
    auth_enabled: await authRequiredToComment(db),
  }));

  app.put(
    '/api/settings',
    { config: { guard: SETTINGS_ROLES.change }, schema: putSchema },
    async (request) => {
      if (request.body.auth_enabled === undefined) throw fail('missing_auth_enabled');
      const value = truthy(request.body.auth_enabled) ? 'true' : 'false';
      await writeTransaction(database, async (trx) => {
        await setSetting(trx, 'auth_enabled', value);
        await audit(trx, actorOf(request.viewer, clock.now()), {
          action: 'settings.update',
          params: { key: 'auth_enabled', value: value === 'true' },
        });
      });
      return OK;
    },
  );

  methodNotAllowed(app, '/api/settings', ['GET', 'PUT']);
};
