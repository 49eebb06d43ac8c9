import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf, audit } from '../audit/queries.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import { cut, parseId, truthy } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { OK } from '../lib/schemas.ts';
import { findUser, listUsers, setAdmin, setBanned, setModerator } from './queries.ts';
import { listSchema, SEARCH_MAX, updateSchema } from './schemas.ts';
import { USER_ROLES } from './policy.ts';

/** DECISIONS.md: users, moderators and bans for the administrator. */
export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, database, clock } = app;

  app.get('/api/users', { config: { guard: USER_ROLES.list }, schema: listSchema }, async (request) =>
    listUsers(db, cut(request.query.q?.trim() ?? '', SEARCH_MAX)),
  );

  app.put('/api/users', { config: { guard: USER_ROLES.change }, schema: updateSchema }, async (request) => {
    const id = parseId(request.query.id);
    if (id === null) throw fail('missing_id');
    const { body } = request;
    if (body.banned === undefined && body.is_mod === undefined && body.is_admin === undefined) {
      throw fail('nothing_to_update');
    }
    const actor = actorOf(request.viewer, clock.now());
    await writeTransaction(database, async (trx) => {
      const found = await findUser(trx, id);
      if (!found) throw fail('user_not_found');
      const banned = body.banned === undefined ? found.banned : truthy(body.banned);
      if (body.is_admin !== undefined && truthy(body.is_admin) && banned) throw fail('banned_user_admin');
      const who = { login: found.login, provider: found.provider };
      if (body.banned !== undefined) {
        await setBanned(trx, id, banned);
        await audit(trx, actor, {
          action: 'user.ban',
          target_id: id,
          params: { ...who, banned },
          details: { old: found.banned, new: banned },
        });
      }
      if (body.is_mod !== undefined) {
        const isMod = truthy(body.is_mod);
        await setModerator(trx, id, isMod);
        await audit(trx, actor, {
          action: 'user.moderator',
          target_id: id,
          params: { ...who, moderator: isMod },
          details: { old: found.is_mod, new: isMod },
        });
      }
      if (body.is_admin !== undefined) {
        const isAdmin = truthy(body.is_admin);
        await setAdmin(trx, id, isAdmin);
        await audit(trx, actor, {
          action: 'user.admin',
          target_id: id,
          params: { ...who, admin: isAdmin },
          details: { old: found.is_admin, new: isAdmin },
        });
      }
    });
    return OK;
  });

  methodNotAllowed(app, '/api/users', ['GET', 'PUT']);
};
