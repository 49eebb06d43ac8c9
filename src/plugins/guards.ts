import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DomainError } from '../errors.ts';

/** Who may call a route. */
export type Role = 'public' | 'signedIn' | 'admin' | 'adminOrModerator';

/** A fixed role, or one chosen from the query (e.g. `POST /api/streamers?admin=1`). */
export type Guard = Role | ((request: FastifyRequest) => Role);

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

export function allows(role: Role, request: FastifyRequest): boolean {
  const { viewer } = request;
  switch (role) {
    case 'public':
      return true;
    case 'signedIn':
      return viewer.user !== null;
    case 'admin':
      return viewer.isAdmin;
    case 'adminOrModerator':
      return viewer.isAdmin || viewer.isMod;
  }
}

/**
 * Deny by default: every route states its guard in its own options. A route without one
 * answers 401 to everybody (and is reported when registered).
 */
export const guardsPlugin = fp(
  async (app: FastifyInstance) => {
    const routeList: RegisteredRoute[] = [];
    app.decorate('routeList', routeList);
    app.addHook('onRoute', (route) => {
      const guard = route.config?.guard;
      if (!guard) app.log.error(`route ${String(route.method)} ${route.url} has no guard: denied`);
      for (const method of [route.method].flat()) routeList.push({ method, url: route.url, guard });
    });

    app.addHook('onRequest', async (request) => {
      if (request.is404 || request.method === 'OPTIONS') return;
      const guard = request.routeOptions.config.guard;
      const role = typeof guard === 'function' ? guard(request) : guard;
      if (role && allows(role, request)) return;
      throw new DomainError(401, role === 'signedIn' ? 'Not logged in' : 'Unauthorized');
    });
  },
  { name: 'guards', dependencies: ['session'] },
);
