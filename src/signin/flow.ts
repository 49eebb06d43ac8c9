import type { FastifyRequest } from 'fastify';
import type { ProviderConfig } from '../config/providers.ts';
import type { Db } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import type { ProviderProfile } from '../users/queries.ts';

export interface FlowContext {
  request: FastifyRequest;
  provider: ProviderConfig;
  db: Db;
  clock: Clock;
  timeoutMs: number;
}

/** The outcome of a callback: a profile to sign in, or an `auth_error` code. */
export type FlowResult = { profile: ProviderProfile } | { error: string };

/** One provider's half of the authorization-code flow; the route does the rest. */
export interface SignInFlow {
  /** Prepares the state and answers the provider's authorization URL. */
  start(ctx: FlowContext): Promise<string>;
  /** Checks the returned state, exchanges the code and reads the user. */
  complete(ctx: FlowContext, params: { code: string; state: string | undefined }): Promise<FlowResult>;
}

export function authorizeUrl(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}
