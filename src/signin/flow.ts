import type { FastifyRequest } from 'fastify';
import type { ProviderConfig } from '../config/providers.ts';
import type { Db } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { nameLine } from '../lib/input.ts';
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

/**
 * The profile a sign-in stores from the provider's answer: its login and display name as every
 * name is stored (lib/input.ts `nameLine`), without the control characters that would break a
 * feed's XML or the invisible ones that let a name pass for another (issue 45, items 9 and 10).
 * A display name with nothing visible left is the login (Kick's answer may carry one name for
 * both: then the provider's id, the one thing left that names the account).
 */
export function storedProfile(profile: ProviderProfile): ProviderProfile {
  const login = nameLine(profile.login);
  return { ...profile, login, display_name: nameLine(profile.display_name) || login || profile.provider_id };
}
