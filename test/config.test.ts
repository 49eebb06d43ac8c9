import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/config.ts';
import { openDatabase } from '../src/db/connect.ts';
import { loadDriver, sqliteDriver } from '../src/db/sqlite-driver.ts';
import { SERVICE_ENV, SERVICE_NODE_ARGS, START_COMMAND } from '../src/node-args.ts';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = parseConfig({});
    expect(c).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      baseUrl: 'http://localhost:3000',
      databaseUrl: 'sqlite:./data/streamers.db',
      corsOrigins: [],
      trustProxy: [],
      oauthDebugPublic: false,
      rateLimit: true,
      logLevel: 'info',
      providerTimeoutMs: 10_000,
      liveSyncSeconds: 60,
    });
    expect(c.providers.provider_a).toMatchObject({
      authorizeUrl: 'https://id.twitch.tv/oauth2/authorize',
      tokenUrl: 'https://id.twitch.tv/oauth2/token',
      userUrl: 'https://api.twitch.tv/helix/users',
      apiUrl: 'https://api.twitch.tv/helix',
      redirectUri: 'http://localhost:3000/api/oauth/login/provider_a',
    });
    expect(c.providers.provider_b).toMatchObject({
      authorizeUrl: 'https://id.kick.com/oauth/authorize',
      tokenUrl: 'https://id.kick.com/oauth/token',
      userUrl: 'https://api.kick.com/public/v1/users',
      apiUrl: 'https://api.kick.com/public/v1',
      redirectUri: 'http://localhost:3000/api/oauth/login/provider_b',
    });
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('BASE_URL follows PORT and drives the redirect URIs, which can be overridden', () => {
    const c = parseConfig({ PORT: '8080', PROVIDER_B_REDIRECT_URI: 'https://x.example/cb' });
    expect(c.baseUrl).toBe('http://localhost:8080');
    expect(c.providers.provider_a.redirectUri).toBe('http://localhost:8080/api/oauth/login/provider_a');
    expect(c.providers.provider_b.redirectUri).toBe('https://x.example/cb');
  });

  it.each([
    [{ PORT: 'abc' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ BASE_URL: 'ftp://x' }, /BASE_URL/],
    [{ BASE_URL: 'https://x.example/sub' }, /BASE_URL/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    // The driver would say only `Invalid URL` (stop 91's operator walk).
    [{ DATABASE_URL: 'postgres://u:pw@127.0.0.1:notaport/db' }, /DATABASE_URL/],
    [{ CORS_ORIGINS: 'not a url' }, /CORS_ORIGINS/],
    [{ CORS_ORIGINS: 'https://a.example/path' }, /CORS_ORIGINS/],
    [{ TRUST_PROXY: '10.0.0.0/99' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: 'proxy.local' }, /TRUST_PROXY/],
    [{ RATE_LIMIT: 'maybe' }, /RATE_LIMIT/],
    [{ OAUTH_DEBUG_PUBLIC: 'yes' }, /OAUTH_DEBUG_PUBLIC/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ ADMIN_PASSWORD_HASH: 'plain' }, /ADMIN_PASSWORD_HASH/],
    [{ SESSION_SECRET: 'short' }, /SESSION_SECRET/],
    [{ DEV_PROVIDERS: 'true', NODE_ENV: 'production' }, /DEV_PROVIDERS/],
    [{ PROVIDER_A_TOKEN_URL: 'nope' }, /PROVIDER_A_TOKEN_URL/],
    [{ PROVIDER_B_API_URL: 'nope' }, /PROVIDER_B_API_URL/],
    [{ LIVE_SYNC_SECONDS: '-1' }, /LIVE_SYNC_SECONDS/],
    [{ LIVE_SYNC_SECONDS: 'often' }, /LIVE_SYNC_SECONDS/],
  ])('%j fails fast naming the variable', (env, name) => {
    expect(() => parseConfig(env)).toThrow(name);
  });

  it('live sync: LIVE_SYNC_SECONDS=0 turns it off; DEV_PROVIDERS points the API URLs at the stand-ins', () => {
    expect(parseConfig({ LIVE_SYNC_SECONDS: '0' }).liveSyncSeconds).toBe(0);
    const dev = parseConfig({ DEV_PROVIDERS: 'true', PORT: '4000' });
    expect(dev.providers.provider_a.apiUrl).toBe('http://127.0.0.1:4000/dev/live/provider_a');
    expect(dev.providers.provider_b.apiUrl).toBe('http://127.0.0.1:4000/dev/live/provider_b');
    expect(parseConfig({ PROVIDER_A_API_URL: 'http://x.example/helix/' }).providers.provider_a.apiUrl).toBe(
      'http://x.example/helix',
    );
  });

  it('accepts lists of origins and proxy addresses', () => {
    const c = parseConfig({
      CORS_ORIGINS: 'https://a.example, http://b.example:8080',
      TRUST_PROXY: '127.0.0.1, 10.0.0.0/8, ::1',
    });
    expect(c.corsOrigins).toEqual(['https://a.example', 'http://b.example:8080']);
    expect(c.trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', '::1']);
  });
});

describe('metrics and scheduled backups', () => {
  it('are off by default; BACKUP_DIR alone backs up daily and keeps 7', () => {
    expect(parseConfig({})).toMatchObject({ metricsToken: null, backup: null });
    expect(parseConfig({ BACKUP_DIR: '/var/backups/sr' }).backup).toEqual({
      dir: '/var/backups/sr',
      everyHours: 24,
      keep: 7,
    });
    expect(
      parseConfig({ BACKUP_DIR: 'b', BACKUP_EVERY_HOURS: '0.5', BACKUP_KEEP: '48' }).backup,
    ).toMatchObject({
      everyHours: 0.5,
      keep: 48,
    });
    expect(parseConfig({ METRICS_TOKEN: 'a'.repeat(32) }).metricsToken).toBe('a'.repeat(32));
  });

  it.each([
    [{ BACKUP_EVERY_HOURS: '6' }, /BACKUP_EVERY_HOURS needs BACKUP_DIR/],
    [{ BACKUP_KEEP: '3' }, /BACKUP_KEEP needs BACKUP_DIR/],
    [
      { BACKUP_DIR: 'b', DATABASE_URL: 'postgres://u@h/db' },
      /BACKUP_DIR copies SQLite databases; on PostgreSQL back up with pg_dump/,
    ],
    [{ BACKUP_DIR: 'b', DATABASE_URL: 'sqlite::memory:' }, /BACKUP_DIR has nothing to copy/],
    [{ BACKUP_DIR: 'b', BACKUP_EVERY_HOURS: '0' }, /BACKUP_EVERY_HOURS must be/],
    [{ BACKUP_DIR: 'b', BACKUP_EVERY_HOURS: 'daily' }, /BACKUP_EVERY_HOURS must be/],
    [{ BACKUP_DIR: 'b', BACKUP_KEEP: '0' }, /BACKUP_KEEP must be/],
    [{ METRICS_TOKEN: 'short' }, /METRICS_TOKEN must be at least 16/],
    [{ METRICS_TOKEN: 'has a space in the middle' }, /METRICS_TOKEN must be/],
  ])('%j is a contradiction that stops the start, naming the variable', (env, message) => {
    expect(() => parseConfig(env)).toThrow(message);
  });
});

describe('how the service is started', () => {
  it('npm start passes the Node.js options and environment the bench and the soak measure with', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
    expect(pkg.scripts.start).toBe(START_COMMAND);
  });

  it("README's production command line is the one npm start and the unit run", () => {
    const env = Object.entries(SERVICE_ENV).map(([name, value]) => `${name}=${value}`);
    const line = [...env, 'node', ...SERVICE_NODE_ARGS, 'dist/src/main.js'].join(' ');
    expect(readFileSync('README.md', 'utf8').split('\n')).toContain(line);
  });
});

describe('e-mail', () => {
  it('is off by default; SMTP_URL with MAIL_FROM turns it on; DKIM reads its key file once', () => {
    expect(parseConfig({}).mail).toBeNull();
    const on = parseConfig({
      SMTP_URL: 'smtps://u:p@mail.example.org:465',
      MAIL_FROM: 'Site <no-reply@example.org>',
      TZ: 'Europe/Prague',
    });
    expect(on.mail).toEqual({
      smtpUrl: 'smtps://u:p@mail.example.org:465',
      from: 'Site <no-reply@example.org>',
      dkim: null,
      timeZone: 'Europe/Prague',
    });
    const dir = mkdtempSync(join(tmpdir(), 'dkim-'));
    const keyFile = join(dir, 'key.pem');
    writeFileSync(keyFile, '-----BEGIN PRIVATE KEY-----\nMII\n-----END PRIVATE KEY-----\n');
    const signed = parseConfig({
      SMTP_URL: 'smtp://127.0.0.1:25',
      MAIL_FROM: 'no-reply@example.org',
      MAIL_DKIM_DOMAIN: 'example.org',
      MAIL_DKIM_SELECTOR: 'mail',
      MAIL_DKIM_KEY_FILE: keyFile,
    });
    expect(signed.mail?.dkim).toMatchObject({ domainName: 'example.org', keySelector: 'mail' });
  });

  it.each([
    [{ SMTP_URL: 'smtp://127.0.0.1:25' }, /MAIL_FROM must be set with SMTP_URL/],
    [{ MAIL_FROM: 'no-reply@example.org' }, /SMTP_URL must be set with MAIL_FROM/],
    [
      { SMTP_URL: 'http://mail.example.org', MAIL_FROM: 'a@example.org' },
      /SMTP_URL must be smtp:\/\/ or smtps:\/\//,
    ],
    [{ SMTP_URL: 'smtp://127.0.0.1', MAIL_FROM: 'not an address' }, /MAIL_FROM must be an address/],
    // A sender at a domain without a dot (receiving servers refuse it), by the users' own rule.
    [
      { SMTP_URL: 'smtp://127.0.0.1', MAIL_FROM: 'no-reply@localhost' },
      /MAIL_FROM must be an address with a dot in its domain .*\(got "no-reply@localhost"\)/,
    ],
    [
      { SMTP_URL: 'smtp://127.0.0.1', MAIL_FROM: 'Site <no-reply@mail-host>' },
      /MAIL_FROM must be an address with a dot in its domain/,
    ],
    [
      { SMTP_URL: 'smtp://127.0.0.1', MAIL_FROM: 'Site <no-reply@example..org>' },
      /MAIL_FROM must be an address/,
    ],
    [
      { SMTP_URL: 'smtp://127.0.0.1', MAIL_FROM: 'a@example.org', TZ: 'Mars/Olympus' },
      /TZ must be a time zone/,
    ],
    [
      { SMTP_URL: 'smtp://127.0.0.1', MAIL_FROM: 'a@example.org', MAIL_DKIM_DOMAIN: 'example.org' },
      /MAIL_DKIM_SELECTOR must be set/,
    ],
    [
      {
        SMTP_URL: 'smtp://127.0.0.1',
        MAIL_FROM: 'a@example.org',
        MAIL_DKIM_DOMAIN: 'e.org',
        MAIL_DKIM_SELECTOR: 's',
        MAIL_DKIM_KEY_FILE: '/nonexistent',
      },
      /MAIL_DKIM_KEY_FILE must name a readable/,
    ],
    [{ MAIL_DKIM_DOMAIN: 'example.org' }, /MAIL_DKIM_DOMAIN needs SMTP_URL and MAIL_FROM/],
    [{ PROVIDER_A_CLIENT_ID: 'abc' }, /PROVIDER_A_CLIENT_SECRET must be set with PROVIDER_A_CLIENT_ID/],
    [{ PROVIDER_B_CLIENT_SECRET: 'xyz' }, /PROVIDER_B_CLIENT_ID must be set with PROVIDER_B_CLIENT_SECRET/],
  ])('%j stops the start, naming the variable', (env, message) => {
    expect(() => parseConfig(env)).toThrow(message);
  });

  it('the password in SMTP_URL never appears in the error', () => {
    expect(() => parseConfig({ SMTP_URL: 'http://u:secret-pass@h', MAIL_FROM: 'a@example.org' })).toThrow(
      /^(?!.*secret-pass)/s,
    );
  });
});

describe('a SQLite file the service cannot open', () => {
  it('is named with DATABASE_URL in the error, which SQLite leaves out', () => {
    // A directory where the file should be (root may write anywhere, so not a read-only one).
    const dir = mkdtempSync(join(tmpdir(), 'not-a-file-'));
    expect(() => openDatabase(`sqlite:${dir}`)).toThrow(
      `cannot open the SQLite database ${dir} (DATABASE_URL)`,
    );
  });
});

describe('a new SQLite database', () => {
  it("is the service's user's alone: the directory 0700, the file and its -wal 0600", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'modes-')), 'data');
    const opened = openDatabase(`sqlite:${join(dir, 'streamers.db')}`);
    try {
      await sql`create table t (x integer)`.execute(opened.db);
      const mode = (path: string) => statSync(path).mode & 0o777;
      expect([mode(dir), mode(join(dir, 'streamers.db')), mode(join(dir, 'streamers.db-wal'))]).toEqual([
        0o700, 0o600, 0o600,
      ]);
    } finally {
      await opened.db.destroy();
    }
  });
});

describe("SQLite's driver missing for the Node.js that runs the service (stop 96)", () => {
  it('is said with what to do, not as a module not found', () => {
    expect(() => loadDriver('better-sqlite3-not-installed')).toThrow(
      `the SQLite driver (better-sqlite3-not-installed) is not installed for Node.js ${process.versions.node}: run \`npm ci\` again with this Node.js`,
    );
  });
});

describe('a SQLite file on a full disk (stop 96: the start blamed the rights)', () => {
  it('is said as a full disk, with the room left', (ctx) => {
    // A real full disk: a small tmpfs, which only root may mount (CI's user); elsewhere skipped.
    const dir = mkdtempSync(join(tmpdir(), 'full-disk-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', dir], { stdio: 'ignore' });
    } catch {
      ctx.skip();
    }
    try {
      // A database made while there was room, stopped cleanly (its -wal and -shm removed), then the disk filled.
      const file = join(dir, 'streamers.db');
      const made = new (sqliteDriver())(file);
      made.exec('create table t (x integer)');
      made.close();
      try {
        for (let i = 0; ; i++) writeFileSync(join(dir, `fill-${i}`), Buffer.alloc(64 * 1024));
      } catch {
        // ENOSPC: full.
      }
      expect(() => openDatabase(`sqlite:${file}`)).toThrow(
        /; the disk that holds it is full \(\d+ KiB free\)$/,
      );
    } finally {
      // Let go at once, or lazily when busy; busy means the failed open kept the file open.
      const busy = spawnSync('umount', [dir]).status !== 0;
      if (busy) execFileSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
      expect(busy, 'the failed open kept the file open').toBe(false);
    }
  });
});
