/**
 * Issue 30, item 13: a start writes JSON lines only, from its first line (the configuration,
 * the database, the migrations) to "listening on", the first start's password included; a
 * mistyped DATABASE_URL never reaches the log with its password.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectionLosses } from '../src/server.ts';
import { freePort } from './helpers/app.ts';
import { dbKind } from './helpers/database.ts';
import { MAIN } from './helpers/service.ts';
const SECRET = 's3cr3t-pw-0f-the-database';
const dir = mkdtempSync(join(tmpdir(), 'start-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Line {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** Every line of `out` as JSON: a line that is not JSON fails the test. */
function jsonLines(out: string): Line[] {
  return out
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      expect(() => JSON.parse(l), `not a JSON line: ${l}`).not.toThrow();
      return JSON.parse(l) as Line;
    });
}

const env = (extra: Record<string, string>) => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  BASE_URL: 'http://localhost:1',
  ...extra,
});
/** Starts the service with `childEnv`, waits for its start line, stops it: all it printed. */
async function outputUntilListening(childEnv: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(process.execPath, MAIN, { env: childEnv });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  try {
    await expect.poll(() => out, { timeout: 30_000 }).toContain('listening on');
  } finally {
    child.kill('SIGTERM');
  }
  // Every start here is a clean one: its stop is too.
  expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
  return out;
}

describe.runIf(dbKind === 'sqlite')('what a start logs', { timeout: 60_000 }, () => {
  it('a mistyped DATABASE_URL: one fatal JSON line naming the variable, exit 1, the password nowhere', () => {
    const run = spawnSync(process.execPath, MAIN, {
      env: env({ DATABASE_URL: `postgress://rating:${SECRET}@db.example/rating` }),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('');
    const lines = jsonLines(run.stdout);
    expect(lines.map((l) => l.level)).toEqual([60]);
    expect(lines[0]!.msg).toMatch(/DATABASE_URL .*postgress:\/\/rating:\*\*\*@db\.example\/rating/);
    expect(run.stdout).not.toContain(SECRET);
  });

  it('an argument (`--help`) is refused in one fatal line that names the tool, exit 2, no database made', () => {
    const file = join(dir, 'never.db');
    const run = spawnSync(process.execPath, [...MAIN, '--help'], {
      env: env({ DATABASE_URL: `sqlite:${file}` }),
      encoding: 'utf8',
      // A start taken anyway would serve until stopped: ended here, and the exit code says so.
      timeout: 30_000,
    });
    expect(run.status).toBe(2);
    const lines = jsonLines(run.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe(60);
    expect(lines[0]?.msg).toContain('takes no arguments (given: --help)');
    expect(lines[0]?.msg).toContain('npx streamer-rating --help');
    expect(existsSync(file)).toBe(false);
  });

  it("a plugin's start that fails is said in its own words, not as a port (stop 96)", async () => {
    const file = join(dir, 'not-a-directory');
    writeFileSync(file, '');
    const run = spawnSync(process.execPath, MAIN, {
      env: env({
        DATABASE_URL: `sqlite:${join(dir, 'plugin.db')}`,
        PORT: String(await freePort()),
        BACKUP_DIR: join(file, 'backups'),
      }),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    const fatal = jsonLines(run.stdout).filter((l) => l.level === 60);
    expect(fatal).toHaveLength(1);
    expect(fatal[0]!.msg).toContain(`BACKUP_DIR ${join(file, 'backups')} cannot be created`);
    expect(fatal[0]!.msg).not.toContain('cannot listen');
  });

  it('a database that does not answer: JSON warnings, without the password of its URL', async () => {
    const child = spawn(process.execPath, MAIN, {
      env: env({ DATABASE_URL: `postgres://rating:${SECRET}@127.0.0.1:${await freePort()}/rating` }),
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    try {
      await expect.poll(() => out, { timeout: 30_000 }).toMatch(/database not reachable[^\n]*\n/);
    } finally {
      child.kill('SIGKILL');
    }
    expect(err).toBe('');
    const lines = jsonLines(out);
    expect(lines[0]).toMatchObject({ level: 40, msg: expect.stringMatching(/^database not reachable/) });
    expect(out).not.toContain(SECRET);
  });

  it('a first start: the password once as a field of one line even at LOG_LEVEL=error, and every line JSON', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, MAIN, {
      env: env({
        DATABASE_URL: `sqlite:${join(dir, 'first.db')}`,
        PORT: String(port),
        LOG_LEVEL: 'error',
        MAX_EVENT_LOOP_DELAY_MS: '0',
      }),
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    try {
      await expect.poll(() => out, { timeout: 30_000 }).toContain('admin_password');
      const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://localhost:1' },
        body: JSON.stringify({ password: jsonLines(out).find((l) => l.admin_password)!.admin_password }),
      });
      expect(login.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    await new Promise((resolve) => child.once('exit', resolve));
    expect(err).toBe('');
    const lines = jsonLines(out);
    expect(lines.filter((l) => l.admin_password)).toEqual([
      expect.objectContaining({ level: 30, msg: expect.stringMatching(/^Administrator password/) }),
    ]);
  });

  it('NODE_ENV=production without BASE_URL: a warning that names it (sign-in and the CSRF check take localhost)', async () => {
    const port = await freePort();
    const { BASE_URL: _, ...rest } = env({
      DATABASE_URL: `sqlite:${join(dir, 'production.db')}`,
      PORT: String(port),
      NODE_ENV: 'production',
    });
    const out = await outputUntilListening(rest);
    expect(jsonLines(out).filter((l) => l.msg.startsWith('BASE_URL is not set'))).toEqual([
      expect.objectContaining({ level: 40, msg: expect.stringContaining(`http://localhost:${port}`) }),
    ]);
  });

  it('the start line says the address it bound (HOST:PORT), and BASE_URL apart (an operator found BASE_URL alone)', async () => {
    const port = await freePort();
    const out = await outputUntilListening(
      env({
        DATABASE_URL: `sqlite:${join(dir, 'bound.db')}`,
        PORT: String(port),
        ADMIN_PASSWORD: 'a start-log test password',
        MAX_EVENT_LOOP_DELAY_MS: '0',
      }),
    );
    // One line says it listens: not Fastify's `Server listening at` beside it.
    expect(jsonLines(out).filter((l) => /listening/i.test(l.msg))).toEqual([
      expect.objectContaining({
        level: 30,
        msg: `listening on 127.0.0.1:${port} (BASE_URL http://localhost:1)`,
        address: `127.0.0.1:${port}`,
        base_url: 'http://localhost:1',
      }),
    ]);
    // A process manager's log ends with the stop, not at the signal.
    expect(
      jsonLines(out)
        .slice(-2)
        .map((l) => l.msg),
    ).toEqual(['SIGTERM received, shutting down', 'stopped: every request answered, the database closed']);
  });

  it('a port in use: one fatal line that names HOST and PORT, exit 1', async () => {
    const taken = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    try {
      const run = spawnSync(process.execPath, MAIN, {
        env: env({
          DATABASE_URL: `sqlite:${join(dir, 'taken.db')}`,
          PORT: String(port),
          ADMIN_PASSWORD: 'a start-log test password',
        }),
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.status).toBe(1);
      const fatal = jsonLines(run.stdout).filter((l) => l.level === 60);
      expect(fatal).toEqual([
        expect.objectContaining({
          msg: expect.stringContaining(`cannot listen on HOST 127.0.0.1, PORT ${port}: listen EADDRINUSE`),
        }),
      ]);
      // The system's words once: the logged error's message is not followed by its cause's again.
      expect(
        String((fatal[0]?.err as { message?: string } | undefined)?.message).match(/EADDRINUSE/g),
      ).toHaveLength(1);
    } finally {
      taken.close();
    }
  });

  it("a start says which migrations it applied, or that there were none (the upgrade notes' check)", async () => {
    const start = async () => {
      const out = await outputUntilListening(
        env({
          DATABASE_URL: `sqlite:${join(dir, 'upgrade.db')}`,
          PORT: String(await freePort()),
          ADMIN_PASSWORD: 'a start-log test password',
          MAX_EVENT_LOOP_DELAY_MS: '0',
        }),
      );
      return jsonLines(out).filter((l) => /migrations/.test(l.msg));
    };
    const [first] = await start();
    expect(first).toMatchObject({
      level: 30,
      msg: expect.stringMatching(/^applied migrations: 001-initial, 002-audit-log, /),
    });
    expect(first!.migrations).toContain('011-name-skeletons');
    expect(await start()).toEqual([
      expect.objectContaining({ level: 30, msg: 'no migrations to apply', migrations: [] }),
    ]);
  });
});

describe.runIf(dbKind === 'postgres')('a start on PostgreSQL', { timeout: 60_000 }, () => {
  it('an unknown database is the configuration, not an outage: one fatal line, exit 1, no retries', () => {
    const url = new URL(process.env.TEST_DATABASE_URL ?? '');
    url.pathname = `/no_such_db_${process.pid}`;
    const run = spawnSync(process.execPath, MAIN, {
      env: env({ DATABASE_URL: url.toString(), PORT: '1' }),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    const lines = jsonLines(run.stdout);
    expect(lines.map((l) => l.level)).toEqual([60]);
    expect(lines[0]!.msg).toMatch(/does not exist/);
  });
});

describe('a lost connection of the pool (stop 96: a line carried the whole client, 8 KiB)', () => {
  it('is said by its message and code, without the client the error carries', () => {
    const lines: string[] = [];
    const client = { connectionParameters: { host: '127.0.0.1' }, types: 'x'.repeat(8000) };
    const err = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
      client,
    });
    const log = {
      warn: (obj: unknown, msg?: string) => void lines.push(JSON.stringify([obj, msg])),
      info: () => undefined,
    };
    connectionLosses(() => log).onPoolError(err);
    expect(lines).toEqual([
      JSON.stringify([
        { err: { message: 'terminating connection due to administrator command', code: '57P01' } },
        'database connection lost; the pool replaces it',
      ]),
    ]);
  });
});
