/** The command-line tool run as a user would, and what the API then answers (test/cli*.test.ts). */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';
import { main } from '../../src/cli/dispatch.ts';
import { startApp, type TestApp } from './app.ts';
import { createMigratedDatabase, createTestDatabase, type TestDatabase } from './database.ts';
import { atFileEnd } from './file-end.ts';
import { entry, ROOT } from './service.ts';

export const dir = mkdtempSync(join(tmpdir(), 'cli-test-'));

export async function database(): Promise<TestDatabase> {
  const d = await createTestDatabase();
  atFileEnd(() => d.cleanup());
  return d;
}

/** A database with every migration applied (a copy of the run's template on SQLite). */
export async function migratedDatabase(): Promise<TestDatabase> {
  const d = await createMigratedDatabase();
  atFileEnd(() => d.cleanup());
  return d;
}

export async function app(d: TestDatabase, env: Record<string, string> = {}): Promise<TestApp> {
  const a = await startApp(env, { database: d });
  atFileEnd(() => a.close());
  return a;
}

export const env = (d: TestDatabase) => ({
  ...process.env,
  DATABASE_URL: d.url,
  BASE_URL: 'http://localhost:3000',
  ADMIN_PASSWORD: '',
});

/**
 * The command-line tool as `node` arguments: the build when it is current (`npm test` builds
 * first), as an operator runs it, else the source through tsx (helpers/service.ts `entry`).
 * A run from the build (bundled: scripts/bundle.js) takes a third of the CPU of one through tsx,
 * and these files run the tool often.
 */
export const TOOL =
  entry === 'dist'
    ? [join(ROOT, 'dist/src/cli/main.js')]
    : ['--import', 'tsx', join(ROOT, 'src/cli/main.ts')];

/** Runs the command-line tool as a user would. */
export function cli(d: TestDatabase | null, args: string[], input?: string) {
  const r = spawnSync(process.execPath, [...TOOL, ...args], {
    env: d ? env(d) : { ...process.env, BASE_URL: 'http://localhost:3000' },
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/**
 * The tool's dispatcher (src/cli/dispatch.ts, what the binary runs) called in this process, as
 * `cli` runs it, on the same environment: for what only its words, its exit code and the
 * database show. A process each took 0.15 s of CPU (help) to 0.4 s (a command), and up to a
 * second on a busy machine; tests about the process itself (the bundle, signals, stdin, a
 * pipe, a size limit, the real exit code) spawn it with `cli`.
 */
export async function tool(d: TestDatabase | null, args: string[]) {
  let [out, err] = ['', ''];
  const code = await main(args, {
    out: (text) => void (out += text),
    err: (text) => void (err += text),
    line: (text) => void (out += `${text}\n`),
    env: d ? env(d) : { ...process.env, BASE_URL: 'http://localhost:3000' },
  });
  return { code, out, err };
}

/**
 * What an app answers once it has seen the tool's commit: another process's, which reaches it
 * through SQLite's data_version (looked at every half second) or PostgreSQL's NOTIFY, as an
 * operator's next request after the tool would. Until then its session and answer caches may
 * hold the state before (a tool run in this process finishes well within that half second).
 * Waited for generously, so that a busy machine's pauses do not fail the test.
 */
export const seen = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 10_000, interval: 25 });

/** Runs the command-line tool as `cli` does, without waiting: for several runs at once. */
export function cliAsync(d: TestDatabase, args: string[]) {
  const child = spawn(process.execPath, [...TOOL, ...args], { env: env(d) });
  let [out, err] = ['', ''];
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, out, err })),
  );
}

/**
 * The modules each file of the tool's bundle holds (scripts/bundle.js writes them beside its
 * chunks), as module URLs; none when the tool runs from the source.
 */
function bundled(): Map<string, string[]> {
  if (entry !== 'dist') return new Map();
  const file = join(ROOT, 'dist/src/cli/chunks/modules.json');
  const held = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string[]>;
  const url = (path: string) => pathToFileURL(join(ROOT, path)).href;
  return new Map(Object.entries(held).map(([path, modules]) => [url(path), modules.map(url)]));
}

/** The modules a run loaded: each file it read, and what a file of the bundle holds. */
export function modulesIn(files: string[]): string[] {
  const held = bundled();
  return files.flatMap((url) => [url, ...(held.get(url) ?? [])]);
}

/**
 * Every module URL a run of the tool resolves, ES imports and require() alike, recorded by
 * resolution hooks loaded before the tool.
 */
export function loadsOf(d: TestDatabase | null, args: string[]): string[] {
  const hooks = `
    import { appendFileSync } from 'node:fs';
    export async function resolve(specifier, context, next) {
      const resolved = await next(specifier, context);
      appendFileSync(process.env.CLI_LOADS_FILE, resolved.url + '\\n');
      return resolved;
    }`;
  // Drivers are loaded with require() (src/db/sqlite-driver.ts, pg in db/connect.ts), which
  // the module hooks above do not see on Node.js 20: record CommonJS resolutions too.
  const preload = `import Module, { register } from 'node:module';
    import { appendFileSync } from 'node:fs';
    import { pathToFileURL } from 'node:url';
    const resolveFilename = Module._resolveFilename;
    Module._resolveFilename = function (...args) {
      const file = resolveFilename.apply(this, args);
      if (file.startsWith('/')) appendFileSync(process.env.CLI_LOADS_FILE, pathToFileURL(file).href + '\\n');
      return file;
    };
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
export async function answers(t: TestApp) {
  const adm = await t.admin();
  const streamers = (await adm.get('/api/streamers?all=1')).body;
  const out: Record<string, unknown> = {
    public: (await t.client().get('/api/streamers')).body,
    full: streamers,
    groups: (await adm.get('/api/rater_groups')).body,
    users: (await adm.get('/api/users')).body,
    settings: (await t.client().get('/api/settings')).body,
    audit: (await adm.get('/api/audit?limit=100')).body,
  };
  for (const s of streamers) {
    out[`comments ${s.id}`] = (await t.client().get(`/api/comments?streamer_id=${s.id}`)).body;
    out[`community ${s.id}`] = (await t.client().get(`/api/community_ratings?streamer_id=${s.id}`)).body;
  }
  return out;
}

// Each test runs the tool as a process, several times; a busy machine needs the time.
