import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { givenId } from '../errors.ts';
import { cut, parseId } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { OK, pageLimit } from '../lib/schemas.ts';
import { PAGE_MAX } from '../shared/rules.ts';
import { changeUser } from './change.ts';
import { mayManageUsers, mayRestrictUsers } from './policy.ts';
import { listUsers } from './queries.ts';
import { listSchema, SEARCH_MAX, updateSchema } from './schemas.ts';

/** DECISIONS.md: users, moderators and bans for the administrator. */
export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/api/users', { config: { guard: mayManageUsers }, schema: listSchema }, async ({ query }) =>
    listUsers(app.db, {
      q: cut(query.q?.trim() ?? '', SEARCH_MAX),
      // Present, it names a user: `?id=x` is 400 Missing id, as everywhere (docs/decisions.md).
      ...(query.id === undefined ? {} : { id: givenId(parseId(query.id)) }),
      limit: pageLimit(query.limit, PAGE_MAX),
    }),
  );

  app.put('/api/users', { config: { guard: mayRestrictUsers }, schema: updateSchema }, async (request) => {
    await changeUser(app.ctx, request.viewer, parseId(request.query.id), request.body);
    return OK;
  });

  methodNotAllowed(app, '/api/users', ['GET', 'PUT']);
};
