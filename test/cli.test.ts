import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDatabase as Database } from '../src/db/sqlite-driver.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startApp, type TestApp } from './helpers/app.ts';
import { createTestDatabase, dbKind, type TestDatabase } from './helpers/database.ts';

const dir = mkdtempSync(join(tmpdir(), 'cli-test-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function database(): Promise<TestDatabase> {
  const d = await createTestDatabase();
  cleanups.push(() => d.cleanup());
  return d;
}

async function app(d: TestDatabase, env: Record<string, string> = {}): Promise<TestApp> {
  const a = await startApp(env, { database: d });
  cleanups.push(() => a.close());
  return a;
}

const env = (d: TestDatabase) => ({
  ...process.env,
  DATABASE_URL: d.url,
  BASE_URL: 'http://localhost:3000',
  ADMIN_PASSWORD: '',
});

/** The command-line tool from the source, as `node` arguments. */
const TOOL = ['--import', 'tsx', 'src/cli/main.ts'];

/** Runs the command-line tool as a user would, from the source. */
function cli(d: TestDatabase | null, args: string[], input?: string) {
  const r = spawnSync(process.execPath, [...TOOL, ...args], {
    env: d ? env(d) : { ...process.env, BASE_URL: 'http://localhost:3000' },
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/**
 * Every module URL a run of the tool resolves (imports from ES modules, which is how the
 * tool reaches each package), recorded by a module-resolution hook loaded before the tool.
 */
function loadsOf(d: TestDatabase | null, args: string[]): string[] {
  const hooks = `
    import { appendFileSync } from 'node:fs';
    export async function resolve(specifier, context, next) {
      const resolved = await next(specifier, context);
      appendFileSync(process.env.CLI_LOADS_FILE, resolved.url + '\\n');
      return resolved;
    }`;
  const preload = `import { register } from 'node:module';
    register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
  const file = join(mkdtempSync(join(dir, 'loads-')), 'loads.txt');
  writeFileSync(file, '');
  const r = spawnSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(preload)}`, ...TOOL, ...args],
    {
      env: { ...(d ? env(d) : process.env), BASE_URL: 'http://localhost:3000', CLI_LOADS_FILE: file },
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  expect(r.status, r.stderr).toBeLessThan(3);
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

/** What the API answers about everything an export holds, as each kind of caller sees it. */
async function answers(t: TestApp) {
  const adm = await t.admin();
  const streamers = (await adm.get('/api/streamers?all=1')).body;
  const out: Record<string, unknown> = {
    public: (await t.client().get('/api/streamers')).body,
    full: streamers,
    groups: (await adm.get('/api/rater_groups')).body,
    users: (await adm.get('/api/users')).body,
    settings: (await t.client().get('/api/settings')).body,
    audit: (await adm.get('/api/audit?limit=200')).body,
  };
  for (const s of streamers) {
    out[`comments ${s.id}`] = (await t.client().get(`/api/comments?streamer_id=${s.id}`)).body;
    out[`community ${s.id}`] = (await t.client().get(`/api/community_ratings?streamer_id=${s.id}`)).body;
  }
  return out;
}

// Each test runs the tool as a process, several times; a busy machine needs the time.
describe('streamer-rating command-line tool', { timeout: 120_000 }, () => {
  it('--help lists every command and explains each one', () => {
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
      const one = cli(null, [name, '--help']);
      expect(one.code, name).toBe(0);
      expect(one.out).toMatch(new RegExp(`^Usage: streamer-rating ${name}`));
    }
  });

  it('--help and -h work at every level, before or after other arguments', () => {
    for (const [args, usage] of [
      [['-h'], '<command>'],
      [['help'], '<command>'],
      [['help', 'import'], 'import'],
      [['users', 'ban', '-h'], 'users'],
      [['import', 'file.json', '--force', '--help'], 'import'],
      [['import', '--bogus', '--help'], 'import'],
    ] as const) {
      const r = cli(null, [...args]);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.out).toMatch(new RegExp(`^Usage: streamer-rating ${usage}`));
    }
  });

  it('bad arguments give a clear error and exit code 2', () => {
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
      const r = cli(null, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err + r.out).toMatch(/Usage: streamer-rating|Unknown command/);
      if (args[2] === '--bogus') {
        expect(r.err).toMatch(/^Error: Unknown option '--bogus'.*\n\nUsage: streamer-rating import/s);
      }
    }
  });

  it('help and bad arguments load neither the service nor a database driver nor argon2', async () => {
    const heavy =
      /\/node_modules\/(fastify|@fastify\/[^/]+|kysely|better-sqlite3(?:-node20)?|pg|@node-rs\/argon2[^/]*|bcryptjs)\//;
    for (const args of [['--help'], ['users', '--help'], ['import', '--help'], ['import', 'x', '--bogus']]) {
      const loaded = loadsOf(null, args);
      expect(
        loaded.some((url) => url.endsWith('/src/cli/main.ts')),
        args.join(' '),
      ).toBe(true);
      expect(
        loaded.filter((url) => heavy.test(url)),
        args.join(' '),
      ).toEqual([]);
    }
    // The same recording sees them when a command does run.
    const d = await database();
    const migrate = loadsOf(d, ['migrate']).filter((url) => heavy.test(url));
    expect(migrate.some((url) => url.includes('/node_modules/kysely/'))).toBe(true);
    expect(migrate.some((url) => /\/node_modules\/(better-sqlite3(?:-node20)?|pg)\//.test(url))).toBe(true);
  });

  it('migrate applies the migrations once, then reports the database up to date', async () => {
    const d = await database();
    const first = cli(d, ['migrate']);
    expect(first.code).toBe(0);
    expect(first.out).toContain('Applied: 001-initial, 002-audit-log');
    expect(cli(d, ['migrate']).out).toContain('Database is up to date.');
  });

  it('serve starts the service on the database, prints the generated password once, and stops on SIGTERM', async () => {
    const d = await database();
    const port = await freePort();
    const child = spawn(process.execPath, [...TOOL, 'serve'], {
      env: {
        ...env(d),
        PORT: String(port),
        BASE_URL: `http://localhost:${port}`,
        LOG_LEVEL: 'warn',
        // No load shedding: a busy machine's start-up lag must not answer the login 503.
        MAX_EVENT_LOOP_DELAY_MS: '0',
      },
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    try {
      await expect.poll(() => out, { timeout: 20_000 }).toContain('listening on');
      expect(out).toMatch(/Administrator password \(generated on first start, shown once\):\s+(\S{20})/);
      const password = /shown once\):\s+(\S{20})/.exec(out)![1];
      const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ password }),
      });
      expect(login.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(0);
  });

  it('users list, ban, unban, mod and unmod act on the user the API sees', async () => {
    const d = await database();
    const a = await app(d);
    const u = await a.user({ login: 'CliUser', provider: 'provider_b' });
    expect(cli(d, ['users', 'list']).out).toContain('CliUser');
    expect(cli(d, ['users', 'ban', 'provider_b', 'cliuser']).code).toBe(0);
    const admin = await a.admin();
    const row = async () => (await admin.get('/api/users?q=cliuser')).body[0];
    expect(await row()).toMatchObject({ id: u.id, banned: true });
    cli(d, ['users', 'unban', 'provider_b', 'CLIUSER']);
    cli(d, ['users', 'mod', 'provider_b', 'cliuser']);
    expect(await row()).toMatchObject({ banned: false, is_mod: true });
    cli(d, ['users', 'unmod', 'provider_b', 'cliuser']);
    expect(await row()).toMatchObject({ is_mod: false });
    const missing = cli(d, ['users', 'ban', 'provider_a', 'cliuser']);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("User 'cliuser' on provider_a has not signed in yet");
    const audit = (await admin.get('/api/audit?limit=1')).body[0];
    expect(audit).toMatchObject({ actor: 'cli', action: 'user.moderator' });
  });

  it('settings get and set auth_enabled', async () => {
    const d = await database();
    const a = await app(d);
    expect(cli(d, ['settings', 'get', 'auth_enabled']).out.trim()).toBe('false');
    expect(cli(d, ['settings', 'set', 'auth_enabled', 'true']).code).toBe(0);
    expect(cli(d, ['settings', 'get', 'auth_enabled']).out.trim()).toBe('true');
    expect((await a.client().get('/api/settings')).body).toEqual({ auth_enabled: true });
  });

  it('admin-password reads the password from stdin and it logs in', async () => {
    const d = await database();
    expect(cli(d, ['admin-password'], 'short\n').code).toBe(2);
    const r = cli(d, ['admin-password'], 'a new long password 123\n');
    expect(r.code).toBe(0);
    const a = await app(d, { ADMIN_PASSWORD: '' });
    expect((await a.client().post('/api/auth/login', { password: 'a new long password 123' })).status).toBe(
      200,
    );
  });

  it('demo fills an empty database with a living site and refuses a non-empty one', async () => {
    const d = await database();
    expect(cli(d, ['demo']).code).toBe(0);
    const a = await app(d);
    const list = (await a.client().get('/api/streamers')).body;
    expect(list.length).toBeGreaterThanOrEqual(5);
    expect(list[0]).toMatchObject({ evaluated: true });
    expect((await a.client().get(`/api/comments?streamer_id=${list[0].id}`)).body.length).toBeGreaterThan(0);
    const again = cli(d, ['demo']);
    expect(again.code).toBe(1);
    expect(again.err).toContain('not empty');
  });

  it('export then import into an empty database reproduces every API answer', async () => {
    const source = await database();
    const a = await app(source);
    cli(source, ['demo']);
    const admin = await a.admin();
    const u = await a.user({ login: 'exported' });
    const member = await a.signedIn(u);
    const team = (await admin.get('/api/rater_groups')).body[0];
    await admin.post('/api/rater_groups?members=1', { group_id: team.id, login: 'exported' });
    await member.put('/api/community_ratings', { group_id: team.id, r: { s: 4, g: 5 } });
    await admin.put('/api/settings', { auth_enabled: true });
    await a.client().post('/api/streamers', { name: 'Suggested Later', submitter: 'x' });

    const before = await answers(a);

    const file = join(dir, 'export.json');
    expect(cli(source, ['export', file]).code).toBe(0);
    const exported = readFileSync(file, 'utf8');
    expect(exported).not.toMatch(/admin_password_hash|session_secret|"sessions"/);

    const target = await database();
    const imp = cli(target, ['import', file]);
    expect(imp.code, imp.err).toBe(0);
    const b = await app(target);
    expect(await answers(b)).toEqual(before);
    // ids continue after the imported ones
    const created = await (await b.admin()).post('/api/streamers?admin=1', { name: 'After Import' });
    expect(created.status).toBe(201);
    expect(created.body.id).toBeGreaterThan(Math.max(...(before.full as any[]).map((s) => s.id)));
  });

  it('import refuses a non-empty database unless --force, and rejects a foreign file', async () => {
    const d = await database();
    cli(d, ['demo']);
    const file = join(dir, 'small.json');
    cli(d, ['export', file]);
    const refused = cli(d, ['import', file]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('--force');
    expect(cli(d, ['import', file, '--force']).code).toBe(0);
    const junk = join(dir, 'junk.json');
    writeFileSync(junk, '{"hello": 1}');
    const bad = cli(d, ['import', junk, '--force']);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('not a streamer-rating-export');
  });

  it('import loads an export from an older version, without the columns added since', async () => {
    const source = await database();
    cli(source, ['demo']);
    const a = await app(source);
    const before = await answers(a);
    const file = join(dir, 'current.json');
    expect(cli(source, ['export', file]).code).toBe(0);
    // As a version before migrations 003 and 004 wrote it: no folded login keys, no hiding.
    const data = JSON.parse(readFileSync(file, 'utf8'));
    const added: Record<string, string[]> = {
      users: ['login_key', 'display_key'],
      comments: ['hidden', 'hidden_by', 'edited_at'],
    };
    for (const [table, columns] of Object.entries(added)) {
      for (const row of data.tables[table]) {
        for (const column of columns) {
          expect(row, `${table}.${column}`).toHaveProperty(column);
          delete row[column];
        }
      }
    }
    const old = join(dir, 'old.json');
    writeFileSync(old, JSON.stringify(data));

    const target = await database();
    const imp = cli(target, ['import', old]);
    expect(imp.code, imp.err).toBe(0);
    expect(await answers(await app(target))).toEqual(before);
    // The folded keys are made again: users are found by login and by name, in any case.
    expect(cli(target, ['users', 'list', 'KICKKAREL']).out).toContain('kick_karel');
    expect(cli(target, ['users', 'mod', 'provider_b', 'Kick_Karel']).code).toBe(0);
  });

  it('import refuses a file with a column the database has not, and changes nothing', async () => {
    const d = await database();
    cli(d, ['demo']);
    const file = join(dir, 'newer.json');
    cli(d, ['export', file]);
    const data = JSON.parse(readFileSync(file, 'utf8'));
    data.tables.streamers[0].from_the_future = 1;
    writeFileSync(file, JSON.stringify(data));
    const r = cli(d, ['import', '--force', file]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('"streamers" rows have a column "from_the_future"');
    const a = await app(d);
    expect((await a.client().get('/api/streamers')).body.length).toBeGreaterThanOrEqual(5);
  });

  it.runIf(dbKind === 'postgres')('backup on PostgreSQL points to pg_dump', async () => {
    const d = await database();
    const r = cli(d, ['backup', join(dir, 'pg.db')]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('pg_dump');
  });

  it.runIf(dbKind === 'sqlite')(
    'backup of a SQLite database while the service writes gives a consistent copy',
    async () => {
      const d = await database();
      const a = await app(d);
      const sid = await a.streamer('Busy');
      let writing = true;
      let written = 0;
      const writer = (async () => {
        const c = a.client();
        while (writing) {
          const r = await c.post('/api/comments', { streamer_id: sid, body: `write ${written}` });
          if (r.status === 201) written++;
        }
      })();
      await new Promise((r) => setTimeout(r, 200));
      const file = join(dir, 'backup.db');
      const child = spawn(process.execPath, [...TOOL, 'backup', file], {
        env: env(d),
      });
      const code = await new Promise((resolve) => child.on('close', resolve));
      writing = false;
      await writer;
      expect(code).toBe(0);
      const copy = new Database(file, { readonly: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        const n = (copy.prepare('select count(*) as n from comments').get() as { n: number }).n;
        expect(n).toBeGreaterThan(0);
        expect(n).toBeLessThanOrEqual(written);
        expect(copy.prepare('select name from streamers').all()).toEqual([{ name: 'Busy' }]);
      } finally {
        copy.close();
      }
    },
  );
});
