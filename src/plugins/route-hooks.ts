import type { onRequestHookHandler, RouteOptions } from 'fastify';

/**
 * Adds an onRequest hook to one route as it is registered (from an `onRoute` hook), after
 * the hooks it has. Per-request plugins attach themselves only to the routes that need them
 * (a session where one is read, a guard where one is not public), so a route that needs
 * none pays for none; a route's automatic HEAD twin is registered the same way.
 */
export function addRouteHook(route: RouteOptions, hook: onRequestHookHandler): void {
  const current = route.onRequest;
  route.onRequest = current === undefined ? [hook] : [...[current].flat(), hook];
}
