import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fail } from '../errors.ts';
import { flag, parseId } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { errors, FlagDoc, IdDoc, Input, Ok, Param } from '../lib/schemas.ts';
import { endOwnSessions, endSessionsOf } from './end.ts';
import { maySignOutAnyone, maySignOutEverywhere } from './policy.ts';

const Ended = Type.Object({ ok: Ok.properties.ok, count: Type.Integer() }, { title: 'SessionsEnded' });

/**
 * "Sign out everywhere" (DECISIONS.md "Staff accounts and sessions"): `?mine=1` ends every
 * session of the signed-in user, this one included; `?user_id=N` lets an administrator do the
 * same for anyone (a stolen account, a former moderator).
 */
export const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.delete(
    '/api/sessions',
    {
      config: { guard: (query) => (query.user_id !== undefined ? maySignOutAnyone : maySignOutEverywhere) },
      schema: {
        summary:
          'Sign out everywhere: `mine=1` ends every session of the signed-in user (this one included); ' +
          '`user_id=N` (administrator) those of any user; one of the two is required (else 400 `missing_id`)',
        querystring: Input({
          mine: Param(FlagDoc('Your own sessions')),
          user_id: Param(IdDoc("Administrator: this user's sessions")),
        }),
        response: { 200: Ended, ...errors(400, 401, 404) },
      },
    },
    async (request) => {
      const { query, viewer, session } = request;
      if (query.user_id !== undefined) {
        const userId = parseId(query.user_id);
        if (userId === null) throw fail('missing_id');
        const count = await endSessionsOf(app.ctx, viewer, userId);
        return { ok: true as const, count };
      }
      if (!flag(query.mine) || !viewer.user) throw fail('missing_id');
      const count = await endOwnSessions(app.ctx, viewer.user.id);
      // This session's row is gone too: clear its cookie, write nothing back.
      for (const key of Object.keys(session.data) as (keyof typeof session.data)[]) session.unset(key);
      return { ok: true as const, count };
    },
  );

  methodNotAllowed(app, '/api/sessions', ['DELETE']);
};
