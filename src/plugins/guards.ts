import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { fail } from '../errors.ts';
import { type ParsedQuery, parsedQuery } from './parsers.ts';
import { addRouteHook } from './route-hooks.ts';
import { allows, isRolePolicy, type Role, type RolePolicy, roleOfChoice } from '../shared/roles.ts';
import { timeOutRuns } from '../shared/time-out.ts';

export type { Role };

/**
 * A fixed role, a feature's policy that is one role (`mayReadAudit`: the guard calls the very
 * function the page asks), or either chosen from the query (e.g. `POST /api/streamers?admin=1`).
 * The query is the parsed one the handler gets too: one string per name (plugins/parsers.ts),
 * so a guard and its handler cannot read repeated parameters differently.
 */
export type Guard = Role | PolicyGuard | ((query: ParsedQuery) => Role | PolicyGuard);

/**
 * A policy as a guard names it: only its role is typed, so that a guard written as a function
 * of the query keeps its parameter's type; the hook calls the policy itself.
 */
type PolicyGuard = Pick<RolePolicy, 'role'>;

export interface RegisteredRoute {
  method: string;
  url: string;
  guard: Guard | undefined;
  /** Left out of the API document (`schema.hide`: the 405 answers, lib/method-not-allowed.ts). */
  hidden: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    guard?: Guard;
    /**
     * A user's contribution (comment, reply, like, vote, report, suggestion, rating): refused
     * with 403 `timed_out` while the signed-in user is timed out (DECISIONS.md "Moderators'
     * tools"), or only for some requests of the route (`PUT /api/comments?like=1`).
     */
    contribution?: true | ((request: FastifyRequest) => boolean);
  }
  interface FastifyInstance {
    /** Every route with its guard, for the route walk test and the API document. */
    routeList: RegisteredRoute[];
  }
}

/** What the guard asks of this request's caller: a role, or a role's policy. */
function choiceOf(guard: Guard | undefined, request: FastifyRequest): Role | PolicyGuard | undefined {
  return typeof guard === 'function' && !isRolePolicy(guard) ? guard(parsedQuery(request)) : guard;
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
      const hidden = route.schema?.hide === true;
      for (const method of methods) routeList.push({ method, url: route.url, guard, hidden });
      if (guard === 'metricsToken') addRouteHook(route, tokenHook(app.config.metricsToken));
      else if (guard !== 'public') addRouteHook(route, guardHook(guard));
      const contribution = route.config?.contribution;
      if (contribution) addRouteHook(route, timeoutHook(app, contribution));
    });
  },
  { name: 'guards', dependencies: ['viewer'] },
);

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * `Authorization: Bearer <token>`, compared in constant time (digests of equal length, so
 * neither the token's length nor its first wrong character shows in the timing). Without a
 * token configured, nobody passes. A refusal is the unknown path's 404.
 */
export function tokenHook(token: string | null): onRequestHookHandler {
  const expected = token === null ? null : digest(`Bearer ${token}`);
  return (request, _reply, done) => {
    const given = request.headers.authorization;
    const ok = expected !== null && given !== undefined && timingSafeEqual(digest(given), expected);
    done(ok ? undefined : fail('not_found'));
  };
}

function guardHook(guard: Guard | undefined): onRequestHookHandler {
  return (request, _reply, done) => {
    if (request.method === 'OPTIONS') return done();
    const choice = choiceOf(guard, request);
    const role = choice === undefined ? undefined : roleOfChoice(choice);
    if (isRolePolicy(choice) ? choice(request.viewer) : role && allows(role, request.viewer)) return done();
    done(fail(role === 'signedIn' || role === 'signedInOrBanned' ? 'not_logged_in' : 'unauthorized'));
  };
}

/**
 * A timed-out user's contributions are refused, nothing stored, with DECISIONS.md's body
 * (`error` and `code`, nothing more: the current-user answer says until when, `timeout_until`).
 * Reads from the session already loaded: no query.
 */
function timeoutHook(
  app: FastifyInstance,
  applies: true | ((request: FastifyRequest) => boolean),
): onRequestHookHandler {
  return (request, _reply, done) => {
    const until = request.viewer.user?.timeout_until;
    if (!until || request.method === 'OPTIONS') return done();
    if (!timeOutRuns(until, app.clock.now().getTime())) return done();
    if (applies !== true && !applies(request)) return done();
    done(fail('timed_out'));
  };
}
