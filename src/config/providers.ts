import type { Provider } from '../shared/rules.ts';
import { ConfigError, type EnvReader } from './values.ts';

export interface ProviderConfig {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly authorizeUrl: string;
  readonly tokenUrl: string;
  readonly userUrl: string;
  readonly redirectUri: string;
  /** The live-status API (sync/): Twitch's helix or Kick's public v1 base URL. */
  readonly apiUrl: string;
}

/** Twitch's and Kick's own addresses: authorize, token, user, live API. */
const REAL_PROVIDER_URLS: Record<Provider, [string, string, string, string]> = {
  provider_a: [
    'https://id.twitch.tv/oauth2/authorize',
    'https://id.twitch.tv/oauth2/token',
    'https://api.twitch.tv/helix/users',
    'https://api.twitch.tv/helix',
  ],
  provider_b: [
    'https://id.kick.com/oauth/authorize',
    'https://id.kick.com/oauth/token',
    'https://api.kick.com/public/v1/users',
    'https://api.kick.com/public/v1',
  ],
};

export interface ProviderSettings {
  baseUrl: string;
  /** The address this process listens on, as the server calls itself. */
  self: string;
  devProviders: boolean;
}

/**
 * A sign-in provider's settings from `<prefix>_*` variables. The defaults are the provider's
 * real addresses, or with DEV_PROVIDERS the development stand-in this process serves: the
 * browser reaches it at BASE_URL, the server calls itself on the address it listens on.
 */
export function providerConfig(
  env: EnvReader,
  p: Provider,
  prefix: string,
  { baseUrl, self, devProviders }: ProviderSettings,
): ProviderConfig {
  const [authorize, token, user, api] = devProviders
    ? [
        `${baseUrl}/dev/oauth/${p}/authorize`,
        `${self}/dev/oauth/${p}/token`,
        `${self}/dev/oauth/${p}/users`,
        `${self}/dev/live/${p}`,
      ]
    : REAL_PROVIDER_URLS[p];
  const id = env.get(`${prefix}_CLIENT_ID`);
  const secret = env.get(`${prefix}_CLIENT_SECRET`);
  // Twitch signs nobody in without its secret, and a secret without an id is nobody's: a start
  // names the missing one (it logged "live sync is off: no client id and secret" and went on).
  // Kick's sign-in works with an id alone (PKCE, a public client; test/signin-provider-b.test.ts).
  if (secret !== undefined && id === undefined) {
    throw new ConfigError(`${prefix}_CLIENT_ID`, `must be set with ${prefix}_CLIENT_SECRET`);
  }
  if (p === 'provider_a' && id !== undefined && secret === undefined) {
    throw new ConfigError(
      `${prefix}_CLIENT_SECRET`,
      `must be set with ${prefix}_CLIENT_ID (Twitch asks for both)`,
    );
  }
  return Object.freeze({
    clientId: id ?? (devProviders ? `dev-${p}` : ''),
    clientSecret: secret ?? (devProviders ? `dev-secret-${p}` : ''),
    authorizeUrl: env.url(`${prefix}_AUTHORIZE_URL`, authorize),
    tokenUrl: env.url(`${prefix}_TOKEN_URL`, token),
    userUrl: env.url(`${prefix}_USER_URL`, user),
    redirectUri: env.url(`${prefix}_REDIRECT_URI`, `${baseUrl}/api/oauth/login/${p}`),
    apiUrl: env.url(`${prefix}_API_URL`, api).replace(/\/+$/, ''),
  });
}
