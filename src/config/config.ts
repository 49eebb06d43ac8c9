import { isIP } from 'node:net';
import type { Provider } from '../shared/rules.ts';
import { type BackupConfig, backupConfig } from './backup.ts';
import { type MailConfig, mailConfig } from './mail.ts';
import { type ProviderConfig, providerConfig } from './providers.ts';
import { type PushConfig, pushConfig } from './push.ts';
import { ConfigError, type Env, envReader, list } from './values.ts';

/**
 * Configuration, parsed once at start from the environment into a frozen, typed object.
 * A bad value stops the start with a message that names the variable. Its pieces: the values'
 * checks (values.ts), the sign-in providers' defaults (providers.ts), scheduled backups
 * (backup.ts); `.env` is loaded before (dotenv.ts).
 */

export interface Config {
  readonly host: string;
  readonly port: number;
  readonly baseUrl: string;
  readonly origin: string;
  readonly https: boolean;
  readonly databaseUrl: string;
  readonly sessionSecret: string | null;
  readonly corsOrigins: readonly string[];
  readonly trustProxy: readonly string[];
  readonly adminPasswordHash: string | null;
  readonly adminPassword: string | null;
  /** `false` (ADMIN_PASSWORD_LOGIN): only personal administrator accounts, no shared password. */
  readonly adminPasswordLogin: boolean;
  readonly providers: Readonly<Record<Provider, ProviderConfig>>;
  readonly providerTimeoutMs: number;
  /** Live sync's interval; 0 turns it off. A provider syncs when its client id and secret are set. */
  readonly liveSyncSeconds: number;
  /**
   * DISCORD_API_URL: webhook URLs may also start with this (tests point it at a fake Discord);
   * null accepts only Discord's own addresses.
   */
  readonly discordApiUrl: string | null;
  /** How long a post to Discord waits for its answer (DISCORD_TIMEOUT_MS). */
  readonly discordTimeoutMs: number;
  readonly oauthDebugPublic: boolean;
  readonly devProviders: boolean;
  readonly rateLimit: boolean;
  /** Load shedding: past this event-loop delay requests get 503 at once (0: off). */
  readonly maxEventLoopDelayMs: number;
  readonly logLevel: string;
  /**
   * LOG_REQUESTS: a line per request (Fastify's "incoming request" and "request completed",
   * at info). Off by default: the answers from memory before routing (cache/early.ts)
   * are taken only when requests are not logged one by one.
   */
  readonly logRequests: boolean;
  readonly production: boolean;
  /** BASE_URL was given (else it is `http://localhost:<PORT>`, which only a developer's machine is). */
  readonly baseUrlGiven: boolean;
  /** `GET /metrics` answers only `Authorization: Bearer <this>`; null: no metrics at all. */
  readonly metricsToken: string | null;
  /** Scheduled SQLite backups (backup/scheduler.ts); null: none. */
  readonly backup: BackupConfig | null;
  /** Web Push: VAPID keys and subject, the test push service (config/push.ts). */
  readonly push: PushConfig;
  /** E-mail (SMTP_URL and MAIL_FROM, config/mail.ts); null: off. */
  readonly mail: MailConfig | null;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function parseConfig(input: Env = process.env): Config {
  const env = envReader(input);
  const { get, integer, bool, url } = env;

  const host = get('HOST') ?? '127.0.0.1';
  const port = integer('PORT', 3000, 0, 65535);
  const baseUrl = url('BASE_URL', `http://localhost:${port}`).replace(/\/+$/, '');
  const base = new URL(baseUrl);
  if (base.pathname !== '/' || base.search || base.hash) {
    throw new ConfigError('BASE_URL', 'must be an origin without a path', baseUrl);
  }

  const databaseUrl = get('DATABASE_URL') ?? 'sqlite:./data/streamers.db';
  if (!/^(sqlite:.+|postgres(ql)?:\/\/.+)$/.test(databaseUrl) || !parsesAsPostgres(databaseUrl)) {
    throw new ConfigError(
      'DATABASE_URL',
      'must be sqlite:<file>, sqlite::memory: or postgres://...',
      databaseUrl,
    );
  }

  const corsOrigins = list(get('CORS_ORIGINS')).map((o) => {
    try {
      const u = new URL(o);
      if (u.origin !== o.replace(/\/$/, '') || u.origin === 'null') throw new Error();
      return u.origin;
    } catch {
      throw new ConfigError('CORS_ORIGINS', 'must list origins such as https://example.org', o);
    }
  });

  const trustProxy = list(get('TRUST_PROXY')).map((entry) => {
    const [addr, bits, extra] = entry.split('/');
    const family = isIP(addr ?? '');
    const maxBits = family === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (!family || !bitsOk || extra !== undefined) {
      throw new ConfigError('TRUST_PROXY', 'must list IP addresses or CIDR ranges', entry);
    }
    return entry;
  });

  const adminPasswordHash = get('ADMIN_PASSWORD_HASH') ?? null;
  if (adminPasswordHash && !/^(\$argon2id\$|\$2[aby]\$)/.test(adminPasswordHash)) {
    throw new ConfigError('ADMIN_PASSWORD_HASH', 'must be an argon2id or bcrypt hash');
  }

  const production = get('NODE_ENV') === 'production';
  const devProviders = bool('DEV_PROVIDERS', false);
  if (devProviders && production) {
    throw new ConfigError('DEV_PROVIDERS', 'must not be "true" when NODE_ENV is production');
  }
  // The development identity provider is served by this process (config/providers.ts).
  const self = `http://${['0.0.0.0', '::', 'localhost'].includes(host) ? '127.0.0.1' : host}:${port}`;

  const provider = (p: Provider, prefix: string) =>
    providerConfig(env, p, prefix, { baseUrl, self, devProviders });

  const logLevel = (get('LOG_LEVEL') ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`, logLevel);
  }

  const sessionSecret = get('SESSION_SECRET') ?? null;
  if (sessionSecret !== null && sessionSecret.length < 32) {
    throw new ConfigError('SESSION_SECRET', 'must be at least 32 characters long');
  }

  const metricsToken = get('METRICS_TOKEN') ?? null;
  if (metricsToken !== null && !/^[\x21-\x7e]{16,}$/.test(metricsToken)) {
    throw new ConfigError(
      'METRICS_TOKEN',
      'must be at least 16 printable characters without spaces (e.g. openssl rand -hex 32)',
    );
  }

  return Object.freeze({
    host,
    port,
    baseUrl,
    origin: base.origin,
    https: base.protocol === 'https:',
    databaseUrl,
    sessionSecret,
    corsOrigins: Object.freeze(corsOrigins),
    trustProxy: Object.freeze(trustProxy),
    adminPasswordHash,
    adminPassword: input.ADMIN_PASSWORD ? input.ADMIN_PASSWORD : null,
    adminPasswordLogin: bool('ADMIN_PASSWORD_LOGIN', true),
    providers: Object.freeze({
      provider_a: provider('provider_a', 'PROVIDER_A'),
      provider_b: provider('provider_b', 'PROVIDER_B'),
    }),
    providerTimeoutMs: integer('PROVIDER_TIMEOUT_MS', 10_000, 1, 600_000),
    liveSyncSeconds: integer('LIVE_SYNC_SECONDS', 60, 0, 86_400),
    discordApiUrl: get('DISCORD_API_URL') === undefined ? null : url('DISCORD_API_URL', ''),
    discordTimeoutMs: integer('DISCORD_TIMEOUT_MS', 10_000, 100, 60_000),
    oauthDebugPublic: bool('OAUTH_DEBUG_PUBLIC', false),
    devProviders,
    rateLimit: bool('RATE_LIMIT', true, 'on', 'off'),
    maxEventLoopDelayMs: integer('MAX_EVENT_LOOP_DELAY_MS', 1000, 0, 60_000),
    logLevel,
    logRequests: bool('LOG_REQUESTS', false),
    production,
    baseUrlGiven: get('BASE_URL') !== undefined,
    metricsToken,
    backup: backupConfig(get, databaseUrl),
    push: pushConfig(env, baseUrl),
    mail: mailConfig(get),
  });
}

/** A postgres:// address the driver can read (`URL.canParse`: a port that is not a number is not). */
const parsesAsPostgres = (url: string): boolean => url.startsWith('sqlite:') || URL.canParse(url);
