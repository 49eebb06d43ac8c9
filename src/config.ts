import { existsSync } from 'node:fs';
import { isIP } from 'node:net';

/**
 * Configuration, parsed once at start from the environment into a frozen, typed object.
 * A bad value stops the start with a message that names the variable.
 */

import { type Provider, PROVIDERS } from './shared/rules.ts';

export { type Provider, PROVIDERS };

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
   * at info). Off by default: the answers from memory before routing (cache/fast-answers.ts)
   * are taken only when requests are not logged one by one.
   */
  readonly logRequests: boolean;
  readonly production: boolean;
  /** `GET /metrics` answers only `Authorization: Bearer <this>`; null: no metrics at all. */
  readonly metricsToken: string | null;
  /** Scheduled SQLite backups (backup/scheduler.ts); null: none. */
  readonly backup: BackupConfig | null;
}

export interface BackupConfig {
  readonly dir: string;
  readonly everyHours: number;
  /** How many copies stay in `dir`; older ones are deleted after each new one. */
  readonly keep: number;
}

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

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export class ConfigError extends Error {
  constructor(variable: string, problem: string, value?: string) {
    super(
      `Invalid configuration: ${variable} ${problem}` +
        (value === undefined ? '' : ` (got ${JSON.stringify(value)})`),
    );
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

export function parseConfig(env: Env = process.env): Config {
  const get = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === '' ? undefined : v;
  };

  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = get(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) {
      throw new ConfigError(name, `must be an integer from ${min} to ${max}`, raw);
    }
    return n;
  };

  const bool = (name: string, fallback: boolean, yes = 'true', no = 'false'): boolean => {
    const raw = get(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (raw === yes) return true;
    if (raw === no) return false;
    throw new ConfigError(name, `must be "${yes}" or "${no}"`, raw);
  };

  const url = (name: string, fallback: string): string => {
    const raw = get(name) ?? fallback;
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw new ConfigError(name, 'must be an absolute http or https URL', raw);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new ConfigError(name, 'must be an absolute http or https URL', raw);
    }
    return raw;
  };

  const host = get('HOST') ?? '127.0.0.1';
  const port = integer('PORT', 3000, 0, 65535);
  const baseUrl = url('BASE_URL', `http://localhost:${port}`).replace(/\/+$/, '');
  const base = new URL(baseUrl);
  if (base.pathname !== '/' || base.search || base.hash) {
    throw new ConfigError('BASE_URL', 'must be an origin without a path', baseUrl);
  }

  const databaseUrl = get('DATABASE_URL') ?? 'sqlite:./data/streamers.db';
  if (!/^(sqlite:.+|postgres(ql)?:\/\/.+)$/.test(databaseUrl)) {
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
  // The development identity provider is served by this process: the browser reaches it at
  // BASE_URL, the server calls itself on the address it listens on.
  const self = `http://${['0.0.0.0', '::', 'localhost'].includes(host) ? '127.0.0.1' : host}:${port}`;

  const provider = (p: Provider, prefix: string): ProviderConfig => {
    const [authorize, token, user, api] = devProviders
      ? [
          `${baseUrl}/dev/oauth/${p}/authorize`,
          `${self}/dev/oauth/${p}/token`,
          `${self}/dev/oauth/${p}/users`,
          `${self}/dev/live/${p}`,
        ]
      : REAL_PROVIDER_URLS[p];
    return Object.freeze({
      clientId: get(`${prefix}_CLIENT_ID`) ?? (devProviders ? `dev-${p}` : ''),
      clientSecret: get(`${prefix}_CLIENT_SECRET`) ?? (devProviders ? `dev-secret-${p}` : ''),
      authorizeUrl: url(`${prefix}_AUTHORIZE_URL`, authorize),
      tokenUrl: url(`${prefix}_TOKEN_URL`, token),
      userUrl: url(`${prefix}_USER_URL`, user),
      redirectUri: url(`${prefix}_REDIRECT_URI`, `${baseUrl}/api/oauth/login/${p}`),
      apiUrl: url(`${prefix}_API_URL`, api).replace(/\/+$/, ''),
    });
  };

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
    adminPassword: env.ADMIN_PASSWORD ? env.ADMIN_PASSWORD : null,
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
    metricsToken,
    backup: backupConfig(get, databaseUrl),
  });
}

/**
 * BACKUP_DIR turns scheduled backups on; BACKUP_EVERY_HOURS and BACKUP_KEEP mean nothing
 * without it, so setting them alone is a mistake worth stopping for. The backups copy a
 * SQLite file: on PostgreSQL they are pg_dump's job (docs/decisions.md "Scheduled backups").
 */
function backupConfig(get: (name: string) => string | undefined, databaseUrl: string): BackupConfig | null {
  const dir = get('BACKUP_DIR');
  const hours = get('BACKUP_EVERY_HOURS');
  const keep = get('BACKUP_KEEP');
  if (dir === undefined) {
    const orphan = hours !== undefined ? 'BACKUP_EVERY_HOURS' : keep !== undefined ? 'BACKUP_KEEP' : null;
    if (orphan) throw new ConfigError(orphan, 'needs BACKUP_DIR (the directory the backups go to)');
    return null;
  }
  if (databaseUrl.startsWith('postgres')) {
    throw new ConfigError(
      'BACKUP_DIR',
      'copies SQLite databases; on PostgreSQL back up with pg_dump (docs/deploy.md "Backups and restores") and leave BACKUP_DIR unset',
    );
  }
  if (databaseUrl === 'sqlite::memory:') {
    throw new ConfigError('BACKUP_DIR', 'has nothing to copy: DATABASE_URL is sqlite::memory:');
  }
  const everyHours = hours === undefined ? 24 : Number(hours);
  if (hours !== undefined && (!/^\d+(\.\d+)?$/.test(hours) || everyHours < 0.1 || everyHours > 8760)) {
    throw new ConfigError('BACKUP_EVERY_HOURS', 'must be a number of hours from 0.1 to 8760', hours);
  }
  const kept = keep === undefined ? 7 : Number(keep);
  if (keep !== undefined && (!/^\d+$/.test(keep) || kept < 1 || kept > 10_000)) {
    throw new ConfigError('BACKUP_KEEP', 'must be an integer from 1 to 10000', keep);
  }
  return Object.freeze({ dir, everyHours, keep: kept });
}

function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Loads `.env` from the working directory, if there is one; the environment wins. */
export function loadDotEnv(file = '.env'): void {
  if (existsSync(file)) process.loadEnvFile(file);
}
