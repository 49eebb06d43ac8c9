import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { fail } from '../errors.ts';
import { type ParsedQuery, parsedQuery } from './parsers.ts';
import { addRouteHook } from './route-hooks.ts';
import { allows, type Role } from '../shared/roles.ts';

export type { Role };

/**
 * A fixed role, or one chosen from the query (e.g. `POST /api/streamers?admin=1`). The query
 * is the parsed one the handler gets too: one string per name (plugins/parsers.ts), so a
 * guard and its handler cannot read repeated parameters differently.
 */
export type Guard = Role | ((query: ParsedQuery) => Role);

export interface RegisteredRoute {
  method: string;
  url: string;
  guard: Guard | undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    guard?: Guard;
  }
  interface FastifyInstance {
    /** Every route with its guard, for the route walk test and the API document. */
    routeList: RegisteredRoute[];
  }
}

export function roleOf(guard: Guard | undefined, request: FastifyRequest): Role | undefined {
  return typeof guard === 'function' ? guard(parsedQuery(request)) : guard;
}

/**
 * Deny by default: every route states its guard in its own options, checked by a hook on
 * that route (a public route has none). A route without one answers 401 to everybody (and
 * is reported when registered). CORS preflights are answered by @fastify/cors and change
 * nothing; unknown paths reach the 404 handler, which has no guard to pass.
 */
export const guardsPlugin = fp(
  async (app: FastifyInstance) => {
    const routeList: RegisteredRoute[] = [];
    app.decorate('routeList', routeList);
    app.addHook('onRoute', (route) => {
      const methods = [route.method].flat();
      if (methods.every((m) => m === 'OPTIONS')) return;
      const guard = route.config?.guard;
      if (!guard) app.log.error(`route ${methods.join(',')} ${route.url} has no guard: denied`);
      for (const method of methods) routeList.push({ method, url: route.url, guard });
      if (guard !== 'public') addRouteHook(route, guardHook(guard));
    });
  },
  { name: 'guards', dependencies: ['viewer'] },
);

function guardHook(guard: Guard | undefined): onRequestHookHandler {
  return (request, _reply, done) => {
    if (request.method === 'OPTIONS') return done();
    const role = roleOf(guard, request);
    if (role && allows(role, request.viewer)) return done();
    done(fail(role === 'signedIn' || role === 'signedInOrBanned' ? 'not_logged_in' : 'unauthorized'));
  };
}
