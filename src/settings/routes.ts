import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { badRequest } from '../errors.ts';
import { truthy } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { errors, Field, Ok } from '../lib/schemas.ts';
import { record } from '../audit/queries.ts';
import { writeTransaction } from '../db/transaction.ts';
import { authRequiredToComment, setSetting } from './queries.ts';

const Settings = Type.Object({ auth_enabled: Type.Boolean() });
const UpdateBody = Type.Object({ auth_enabled: Type.Optional(Field(32)) });

/** DECISIONS.md: the public `auth_enabled` setting, changed by the administrator. */
export async function settingsRoutes(app: FastifyInstance) {
  const { db } = app;

  app.get(
    '/api/settings',
    { config: { guard: 'public' }, schema: { response: { 200: Settings } } },
    async () => ({ auth_enabled: await authRequiredToComment(db) }),
  );

  app.put(
    '/api/settings',
    {
      config: { guard: 'admin', inputErrors: { '*': 'Missing auth_enabled' } },
      schema: { body: UpdateBody, response: { 200: Ok, ...errors(400, 401) } },
    },
    async (request) => {
      const body = (request.body ?? {}) as Static<typeof UpdateBody>;
      if (!('auth_enabled' in body)) throw badRequest('Missing auth_enabled');
      const value = truthy(body.auth_enabled) ? 'true' : 'false';
      await writeTransaction(db, async (trx) => {
        await setSetting(trx, 'auth_enabled', value);
        await record(trx, request, { action: 'settings.update', summary: `Set auth_enabled to ${value}` });
      });
      return { ok: true };
    },
  );

  methodNotAllowed(app, '/api/settings', ['GET', 'PUT']);
}
