import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { USER_ACTIONS } from '../src/cli/commands/users.ts';
import { VERSION } from '../src/lib/version.ts';
import { freePort } from './helpers/app.ts';
import {
  app,
  cli,
  database,
  dir,
  env,
  loadsOf,
  migratedDatabase,
  modulesIn,
  seen,
  TOOL,
  tool,
} from './helpers/cli.ts';
import { entry, ServerProcess } from './helpers/service.ts';

// Each test runs the tool as a process, several times; a busy machine needs the time.
describe('streamer-rating command-line tool', { timeout: 120_000 }, () => {
  it('--help lists every command and explains each one', async () => {
    // The binary itself once; each command's help through its dispatcher, in this process.
    const all = cli(null, ['--help']);
    expect(all.code).toBe(0);
    const names = [
      'serve',
      'migrate',
      'admin-password',
      'users',
      'settings',
      'export',
      'import',
      'backup',
      'demo',
    ];
    for (const name of names) {
      expect(all.out).toContain(name);
      const one = await tool(null, [name, '--help']);
      expect(one.code, name).toBe(0);
      expect(one.out).toMatch(new RegExp(`^Usage: streamer-rating ${name}`));
    }
  });

  it('a mistyped DATABASE_URL is named in the error without its password', () => {
    const r = spawnSync(process.execPath, [...TOOL, 'users', 'list'], {
      env: {
        ...process.env,
        BASE_URL: 'http://localhost:3000',
        DATABASE_URL: 'postgress://rating:s3cr3t-pw@db.example/rating',
      },
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('postgress://rating:***@db.example/rating');
    expect(r.stdout + r.stderr).not.toContain('s3cr3t-pw');
  });

  it('users, settings, export and backup refuse a SQLite file that is not there, and make none', () => {
    const missing = join(dir, 'typo', 'streamers.db');
    for (const args of [
      ['users', 'list'],
      ['settings', 'get', 'auth_enabled'],
      ['export', '-'],
      ['backup', join(dir, 'b.db')],
    ]) {
      const r = spawnSync(process.execPath, [...TOOL, ...args], {
        env: { ...process.env, BASE_URL: 'http://localhost:3000', DATABASE_URL: `sqlite:${missing}` },
        encoding: 'utf8',
      });
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.stderr).toContain(`no database at ${missing} (DATABASE_URL)`);
      expect(existsSync(missing)).toBe(false);
      expect(existsSync(join(dir, 'b.db'))).toBe(false);
    }
  });

  it('users --help names every action users takes (admin and unadmin too)', async () => {
    const help = (await tool(null, ['users', '--help'])).out;
    const usage = /users (\S+) <provider_a\|provider_b> <login>/.exec(help)?.[1]?.split('|');
    expect(usage?.sort()).toEqual(Object.keys(USER_ACTIONS).sort());
  });

  it('--help and -h work at every level, before or after other arguments', async () => {
    for (const [args, usage] of [
      [['-h'], '<command>'],
      [['help'], '<command>'],
      [['help', 'import'], 'import'],
      [['users', 'ban', '-h'], 'users'],
      [['import', 'file.json', '--force', '--help'], 'import'],
      [['import', '--bogus', '--help'], 'import'],
    ] as const) {
      const r = await tool(null, [...args]);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.out).toMatch(new RegExp(`^Usage: streamer-rating ${usage}`));
    }
  });

  it('bad arguments give a clear error and exit code 2', async () => {
    // The binary's own exit code once; the rest through its dispatcher, in this process.
    const real = cli(null, ['users', 'frobnicate']);
    expect([real.code, real.err]).toEqual([2, expect.stringMatching(/Usage: streamer-rating users/)]);
    for (const args of [
      ['nope'],
      ['toString'],
      ['--bogus'],
      ['help', 'nope'],
      ['users', 'frobnicate'],
      ['users', 'ban', 'provider_x', 'a'],
      ['settings', 'set', 'auth_enabled', 'maybe'],
      ['export'],
      ['serve', 'now'],
      ['import', 'file.json', '--bogus'],
      ['import', 'file.json', '--force=yes'],
      ['backup', '-x', 'file.db'],
      [],
    ]) {
      const r = await tool(null, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err + r.out).toMatch(/Usage: streamer-rating|unknown command/);
      if (args[2] === '--bogus') {
        expect(r.err).toMatch(/^Error: unknown option "--bogus"\n\nUsage: streamer-rating import/);
      }
    }
  });

  it('bad arguments say what is wrong with them (stop 96): an unknown provider, too few or too many, a directory; --version', async () => {
    const said = async (args: string[]) => {
      const r = await tool(null, args);
      expect(r.code, args.join(' ')).toBe(2);
      return r.err.split('\n')[0];
    };
    expect(await said(['users', 'ban', 'provider_x', 'a'])).toBe(
      'Error: unknown provider "provider_x": provider_a (Twitch) or provider_b (Kick)',
    );
    expect(await said(['restore', 'a.db', 'b.db'])).toBe('Error: give one backup file to restore, not 2');
    // Too many is said as too many, not as one missing (`export a b` asked for "the file to write").
    expect(await said(['export', 'a', 'b'])).toBe('Error: give one file to write, not 2');
    expect(await said(['export'])).toBe('Error: give the file to write');
    expect(await said(['backup', 'a.db', 'b.db'])).toBe('Error: give one file to write, not 2');
    expect(await said(['import', 'a.json', 'b.json', 'c.json'])).toBe('Error: give one file to read, not 3');
    expect(await said(['users', 'ban', 'provider_a'])).toBe(
      'Error: give the provider (provider_a or provider_b) and the login',
    );
    expect(await said(['users', 'ban', 'provider_a', 'a', 'b'])).toBe(
      'Error: give one provider (provider_a or provider_b) and one login, not 3',
    );
    expect(await said(['settings', 'get', 'auth_enabled', 'x'])).toBe(
      'Error: give one setting (auth_enabled), not 2',
    );
    expect(await said(['settings', 'set', 'auth_enabled'])).toBe(
      'Error: give the setting (auth_enabled) and the value (true or false)',
    );
    expect(await said(['demo', 'now'])).toBe('Error: demo takes no arguments');
    // Node's own sentence for it had an unbalanced quote (an operator's walk).
    expect(await said(['users', 'list', '--frob'])).toBe('Error: unknown option "--frob"');
    expect(await said(['backup', '-x', 'file.db'])).toBe('Error: unknown option "-x"');
    expect(await said(['--frob'])).toBe('Error: unknown option "--frob"');
    expect(await said(['frob'])).toBe('Error: unknown command "frob"');
    expect(await said(['restore', dir])).toBe(
      `Error: ${dir} is a directory: give one backup file in it (its newest is the last by name)`,
    );
    const version = cli(null, ['--version']);
    expect([version.code, version.out]).toEqual([0, `${VERSION}\n`]);
  });

  it('help and bad arguments load neither the service nor a database driver nor argon2', async () => {
    const heavy =
      /\/node_modules\/(fastify|@fastify\/[^/]+|kysely|better-sqlite3(?:-node20)?|pg|@node-rs\/argon2[^/]*|bcryptjs)\//;
    for (const args of [['--help'], ['users', '--help'], ['import', '--help'], ['import', 'x', '--bogus']]) {
      const loaded = modulesIn(loadsOf(null, args));
      expect(
        loaded.some((url) => /\/src\/cli\/main\.[jt]s$/.test(url)),
        args.join(' '),
      ).toBe(true);
      expect(
        loaded.filter((url) => heavy.test(url)),
        args.join(' '),
      ).toEqual([]);
    }
    // The same recording sees them when a command does run.
    const d = await database();
    const files = loadsOf(d, ['migrate']);
    const migrate = modulesIn(files).filter((url) => heavy.test(url));
    expect(migrate.some((url) => url.includes('/node_modules/kysely/'))).toBe(true);
    expect(migrate.some((url) => /\/node_modules\/(better-sqlite3(?:-node20)?|pg)\//.test(url))).toBe(true);
    // From the build, a command reads its bundle's few files, not its 350-760 modules one by one.
    if (entry === 'dist') expect(files.filter((url) => url.startsWith('file:')).length).toBeLessThan(60);
  });

  it('migrate applies the migrations once, then reports the database up to date', async () => {
    const d = await database();
    const first = await tool(d, ['migrate']);
    expect(first.code).toBe(0);
    expect(first.out).toContain('Applied: 001-initial, 002-audit-log');
    expect((await tool(d, ['migrate'])).out).toContain('Database is up to date.');
  });

  it('serve starts the service on the database, prints the generated password once, and stops on SIGTERM', async () => {
    const d = await database();
    const port = await freePort();
    const serve = await ServerProcess.spawnProcess({
      name: 'streamer-rating serve',
      args: [...TOOL, 'serve'],
      port,
      env: {
        ...env(d),
        BASE_URL: `http://localhost:${port}`,
        LOG_LEVEL: 'warn',
        // No load shedding: a busy machine's start-up lag must not answer the login 503.
        MAX_EVENT_LOOP_DELAY_MS: '0',
      },
    });
    try {
      await serve.ready(20_000);
      // The log's JSON lines: the password is a field of one of them, shown at any LOG_LEVEL.
      const password = serve.logs
        .filter((l) => l.includes('"admin_password"'))
        .map((l) => (JSON.parse(l) as { admin_password: string }).admin_password)[0];
      expect(password).toMatch(/^\S{20}$/);
      const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ password }),
      });
      expect(login.status).toBe(200);
    } finally {
      await serve.stop();
    }
    expect(serve.exit).toEqual({ code: 0, signal: null });
  });

  it('users list, ban, unban, mod and unmod act on the user the API sees', async () => {
    const d = await migratedDatabase();
    const a = await app(d);
    const u = await a.user({ login: 'CliUser', provider: 'provider_b' });
    const [header, first] = (await tool(d, ['users', 'list'])).out.split('\n');
    expect(header).toMatch(/^ +id +provider +login +name +last seen \(UTC\) +roles$/);
    expect(first).toMatch(new RegExp(`^ +${u.id} +provider_b +CliUser `));
    expect((await tool(d, ['users', 'ban', 'provider_b', 'cliuser'])).code).toBe(0);
    const admin = await a.admin();
    const row = async () => (await admin.get('/api/users?q=cliuser')).body[0];
    expect(await row()).toMatchObject({ id: u.id, banned: true });
    await tool(d, ['users', 'unban', 'provider_b', 'CLIUSER']);
    await tool(d, ['users', 'mod', 'provider_b', 'cliuser']);
    expect(await row()).toMatchObject({ banned: false, is_mod: true });
    await tool(d, ['users', 'unmod', 'provider_b', 'cliuser']);
    expect(await row()).toMatchObject({ is_mod: false });
    const missing = await tool(d, ['users', 'ban', 'provider_a', 'cliuser']);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("User 'cliuser' on provider_a has not signed in yet");
    const audit = (await admin.get('/api/audit?limit=1')).body[0];
    expect(audit).toMatchObject({ actor: 'cli', action: 'user.moderator' });
  });

  it('users admin and unadmin make a personal administrator account; a banned user cannot be one', async () => {
    const d = await migratedDatabase();
    const a = await app(d);
    const u = await a.user({ login: 'CliBoss', provider: 'provider_a' });
    const session = await a.signedIn(u);
    expect((await tool(d, ['users', 'admin', 'provider_a', 'cliboss'])).code).toBe(0);
    await seen(async () => (await session.get('/api/auth/check')).body).toEqual({ admin: true });
    expect((await tool(d, ['users', 'list'])).out).toMatch(/CliBoss.*administrator/);
    expect((await tool(d, ['users', 'unadmin', 'provider_a', 'cliboss'])).code).toBe(0);
    await seen(async () => (await session.get('/api/auth/check')).body).toEqual({ admin: false });
    await tool(d, ['users', 'ban', 'provider_a', 'cliboss']);
    const refused = await tool(d, ['users', 'admin', 'provider_a', 'cliboss']);
    expect([refused.code, refused.err]).toEqual([
      1,
      expect.stringContaining('A banned user cannot be an administrator'),
    ]);
  });

  it('settings get and set auth_enabled', async () => {
    const d = await migratedDatabase();
    const a = await app(d);
    expect((await tool(d, ['settings', 'get', 'auth_enabled'])).out.trim()).toBe('false');
    expect((await tool(d, ['settings', 'set', 'auth_enabled', 'true'])).code).toBe(0);
    expect((await tool(d, ['settings', 'get', 'auth_enabled'])).out.trim()).toBe('true');
    await seen(async () => (await a.client().get('/api/settings')).body).toMatchObject({
      auth_enabled: true,
    });
  });

  it('admin-password reads the password from stdin, it logs in, and the old password sessions end', async () => {
    const d = await database();
    expect(cli(d, ['admin-password'], 'short pw 11\n').code).toBe(2);
    expect(cli(d, ['admin-password'], 'the first password\n').code).toBe(0);
    const a = await app(d, { ADMIN_PASSWORD: '' });
    const old = a.client();
    expect((await old.post('/api/auth/login', { password: 'the first password' })).status).toBe(200);
    const r = cli(d, ['admin-password'], 'a new long password 123\n');
    expect(r.code).toBe(0);
    await seen(async () => (await old.get('/api/auth/check')).body.admin as boolean).toBe(false);
    expect((await a.client().post('/api/auth/login', { password: 'a new long password 123' })).status).toBe(
      200,
    );
  });

  it('admin-password refuses while the environment sets the password', async () => {
    const d = await database();
    const r = spawnSync(process.execPath, [...TOOL, 'admin-password'], {
      env: { ...env(d), ADMIN_PASSWORD: 'from the environment' },
      input: 'a new long password 123\n',
      encoding: 'utf8',
    });
    expect([r.status, r.stderr]).toEqual([
      1,
      expect.stringContaining('Password is set by the environment (ADMIN_PASSWORD): remove it'),
    ]);
  });

  it('demo fills an empty database with a living site and refuses a non-empty one', async () => {
    const d = await database();
    expect((await tool(d, ['demo'])).code).toBe(0);
    const a = await app(d);
    const list = (await a.client().get('/api/streamers')).body;
    expect(list.length).toBeGreaterThanOrEqual(5);
    expect(list[0]).toMatchObject({ evaluated: true });
    expect((await a.client().get(`/api/comments?streamer_id=${list[0].id}`)).body.length).toBeGreaterThan(0);
    const again = await tool(d, ['demo']);
    expect(again.code).toBe(1);
    expect(again.err).toContain('not empty');
  });
});
