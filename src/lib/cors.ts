/**
 * What a cross-origin caller of an allowed origin is told (DECISIONS.md "Cross-origin"): the
 * configured origins through @fastify/cors (plugins/external.ts), and the service's own origin,
 * which is always allowed, also when no other is configured and the plugin is not registered
 * (lib/method-not-allowed.ts answers its preflight).
 */
export const CORS_POLICY = {
  methods: ['GET', 'POST', 'PUT', 'DELETE'],
  allowedHeaders: ['Content-Type', 'Idempotency-Key'],
  exposedHeaders: ['Idempotent-Replayed'],
  /** Seconds a browser may keep a preflight's answer. */
  maxAge: 600,
} as const;

/** A preflight's answer headers for an allowed origin, as @fastify/cors writes them. */
export function preflightHeaders(origin: string): Record<string, string> {
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    vary: 'Origin',
    'access-control-allow-methods': CORS_POLICY.methods.join(', '),
    'access-control-allow-headers': CORS_POLICY.allowedHeaders.join(', '),
    'access-control-max-age': String(CORS_POLICY.maxAge),
  };
}
