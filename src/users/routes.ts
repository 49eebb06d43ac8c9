import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { writeTransaction } from '../db/transaction.ts';
import { badRequest, notFound } from '../errors.ts';
import { parseId, truthy } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { errors, Field, Ok, Param } from '../lib/schemas.ts';
import { record } from '../audit/queries.ts';
import { findViewer, listUsers, setBanned, setModerator } from './queries.ts';

const UserItem = Type.Object({
  id: Type.Integer(),
  provider: Type.String(),
  provider_id: Type.String(),
  login: Type.String(),
  display_name: Type.String(),
  avatar: Type.String(),
  last_seen: Type.String(),
  banned: Type.Boolean(),
  is_mod: Type.Boolean(),
});
const ListQuery = Type.Object({ q: Param(200) });
const IdQuery = Type.Object({ id: Param() });
const UpdateBody = Type.Object({
  banned: Type.Optional(Field(32)),
  is_mod: Type.Optional(Field(32)),
});

/** DECISIONS.md: users, moderators and bans for the administrator. */
export async function userRoutes(app: FastifyInstance) {
  const { db } = app;

  app.get(
    '/api/users',
    {
      config: { guard: 'admin', inputErrors: { '*': 'Invalid query' } },
      schema: { querystring: ListQuery, response: { 200: Type.Array(UserItem), ...errors(401) } },
    },
    async (request) => listUsers(db, (request.query as Static<typeof ListQuery>).q?.trim()),
  );

  app.put(
    '/api/users',
    {
      config: { guard: 'admin', inputErrors: { '*': 'Missing id' } },
      schema: {
        querystring: IdQuery,
        body: UpdateBody,
        response: { 200: Ok, ...errors(400, 401, 404) },
      },
    },
    async (request) => {
      const id = parseId((request.query as Static<typeof IdQuery>).id);
      if (id === null) throw badRequest('Missing id');
      const body = (request.body ?? {}) as Static<typeof UpdateBody>;
      if (!('banned' in body) && !('is_mod' in body)) throw badRequest('Nothing to update');
      await writeTransaction(db, async (trx) => {
        const found = await findViewer(trx, id);
        if (!found) throw notFound('User not found');
        const who = `${found.user.login} (${found.user.provider})`;
        if ('banned' in body) {
          const banned = truthy(body.banned);
          await setBanned(trx, id, banned);
          await record(trx, request, {
            action: 'user.ban',
            target_id: id,
            summary: `${banned ? 'Banned' : 'Unbanned'} ${who}`,
            details: { old: found.banned, new: banned },
          });
        }
        if ('is_mod' in body) {
          const isMod = truthy(body.is_mod);
          await setModerator(trx, id, isMod);
          await record(trx, request, {
            action: 'user.moderator',
            target_id: id,
            summary: `${isMod ? 'Made' : 'Removed'} ${who} ${isMod ? 'a moderator' : 'as moderator'}`,
            details: { old: found.isMod, new: isMod },
          });
        }
      });
      return { ok: true };
    },
  );

  methodNotAllowed(app, '/api/users', ['GET', 'PUT']);
}
