/**
 * `npm start` (issue 18): it builds only when the build is missing or older than the sources,
 * so a restart on a current build answers at once, and it starts in a production install
 * (`npm ci && npm run build && npm prune --omit=dev`) without the development dependencies.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Service } from './helpers/service.ts';

const ROOT = process.cwd();
const SCRIPT = join(ROOT, 'scripts', 'build-if-stale.js');
const temp = mkdtempSync(join(tmpdir(), 'start-test-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** Writes `file` under `dir` with its modification time `seconds` from now. */
function put(dir: string, file: string, seconds: number, text = 'x'): void {
  const path = join(dir, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  touch(dir, file, seconds);
}
function touch(dir: string, file: string, seconds: number): void {
  const when = new Date(Date.now() + seconds * 1000);
  utimesSync(join(dir, file), when, when);
}
/** The stale check in `dir`: its exit status and what it printed. */
function check(dir: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: dir, encoding: 'utf8' });
  return { status: run.status, out: run.stdout + run.stderr };
}

describe('the stale check before npm start (scripts/build-if-stale.js)', () => {
  const tree = join(temp, 'tree');
  for (const file of [
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'src/main.ts',
    'src/db/deep/x.ts',
    'web/src/App.svelte',
    'scripts/bundle.js',
  ])
    put(tree, file, -100);
  put(tree, 'dist/src/main.js', -50);
  mkdirSync(join(tree, 'dist'), { recursive: true });
  check(tree, '--stamp');
  touch(tree, 'dist/.build-stamp', -50);

  it('a build newer than every source is current: nothing is built', () => {
    expect(check(tree, '--check')).toEqual({ status: 0, out: 'build is current\n' });
    // Without --check it does nothing either (there is no npm project here to build).
    expect(check(tree).status).toBe(0);
  });

  it('outputs and installs inside the source folders are not sources', () => {
    put(tree, 'web/src/lib/generated/api.d.ts', 10);
    put(tree, 'web/node_modules/x/index.js', 10);
    put(tree, 'dist/web/index.html', 10);
    expect(check(tree, '--check').status).toBe(0);
  });

  it('any source changed after the build makes it stale, naming the file', () => {
    for (const file of ['src/db/deep/x.ts', 'web/src/App.svelte', 'tsconfig.json', 'scripts/bundle.js']) {
      touch(tree, file, 10);
      expect(check(tree, '--check'), file).toEqual({
        status: 1,
        out: `build is stale: ${file} changed after the last build\n`,
      });
      touch(tree, file, -100);
    }
    expect(check(tree, '--check').status).toBe(0);
  });

  it('package.json and package-lock.json count by their content: npm prune rewrites the lock file unchanged', () => {
    touch(tree, 'package-lock.json', 10);
    touch(tree, 'package.json', 10);
    expect(check(tree, '--check').status).toBe(0);
    put(tree, 'package-lock.json', -100, 'another lock');
    expect(check(tree, '--check')).toEqual({
      status: 1,
      out: 'build is stale: package.json or package-lock.json changed after the last build\n',
    });
    put(tree, 'package-lock.json', -100, 'x');
    expect(check(tree, '--check').status).toBe(0);
  });

  it('a missing build is stale; without the development dependencies it says what to run instead of failing in the build', () => {
    rmSync(join(tree, 'dist/.build-stamp'));
    expect(check(tree, '--check')).toEqual({ status: 1, out: 'build is stale: no build yet\n' });
    const run = check(tree);
    expect(run.status).toBe(1);
    expect(run.out).toMatch(/development dependencies are not installed: run `npm ci && npm run build`/);
  });

  it('--stamp marks the build current', () => {
    expect(check(tree, '--stamp').status).toBe(0);
    expect(check(tree, '--check').status).toBe(0);
  });
});

/** `npm start` in `cwd`, answering /healthz; its output in `log()`. */
async function npmStart(cwd: string, databaseUrl: string): Promise<Service & { log: () => string }> {
  const service = await Service.start(
    {
      databaseUrl,
      cwd,
      via: 'npm start',
      // A clean environment, as an operator's: vitest's own (BASE_URL=/ among it) is not theirs.
      testSettings: false,
      env: { RATE_LIMIT: 'off', NODE_ENV: 'production' },
    },
    30_000,
  );
  return Object.assign(service, { log: () => service.logs.join('\n') });
}

describe('npm start on a current build', () => {
  it('the project is built (npm test builds first): the check finds it current', () => {
    expect(check(ROOT, '--check')).toEqual({ status: 0, out: 'build is current\n' });
  });

  it('the bundle is ASCII (V8 keeps its source at one byte a character), and its escapes mean what the characters meant', async () => {
    expect(/[^\0-\x7f]/.test(readFileSync(join(ROOT, 'dist/src/main.js'), 'utf8'))).toBe(false);
    const { asciiOnly } = (await import(join(ROOT, 'scripts/ascii.js'))) as {
      asciiOnly: (text: string) => string;
    };
    const source = [
      '// a comment → kept as text',
      'const pattern = /^(\\d+) → (\\d+)$/s;',
      "const quoted = 'Středa 😀';",
      'const template = `Středa 😀`;',
      "console.log(JSON.stringify([pattern.test('1 → 2'), quoted, template, /😀/u.test('😀')]));",
    ].join('\n');
    const escaped = asciiOnly(source);
    expect(/[^\0-\x7f]/.test(escaped)).toBe(false);
    expect(escaped).toContain('\\u2192');
    expect(JSON.parse(execFileSync(process.execPath, ['-e', escaped], { encoding: 'utf8' }))).toEqual([
      true,
      'Středa 😀',
      'Středa 😀',
      true,
    ]);
  });

  // How fast it starts is the bench's to measure (its cold-start row, bench/suite.ts).
  it('starts without building and answers /healthz', async () => {
    const data = join(temp, 'data-dev');
    mkdirSync(data);
    const service = await npmStart(ROOT, `sqlite:${join(data, 'x.db')}`);
    try {
      expect(service.log()).not.toMatch(/Building first/);
    } finally {
      await service.stop();
    }
  });

  it('a SIGTERM to npm alone stops the service: nothing is left answering', async () => {
    const data = join(temp, 'data-term');
    mkdirSync(data);
    const service = await npmStart(ROOT, `sqlite:${join(data, 'x.db')}`);
    try {
      process.kill(service.pid, 'SIGTERM'); // npm only, as a process manager that signals npm does
      // Every process npm started ends (a shell between npm and node would leave node running).
      await service.gone(15_000);
      const answering = await fetch(`${service.url}/healthz`).then(
        () => true,
        () => false,
      );
      expect(answering).toBe(false);
    } finally {
      await service.kill9(); // whatever is left of its process group
    }
  });

  it('in a production install (only the production dependencies) it starts, serves the page, and needs nothing else', async () => {
    // What `npm ci && npm run build && npm prune --omit=dev` leaves: the project, its build,
    // and node_modules with the production dependencies only (here linked from this checkout).
    const prod = join(temp, 'prod');
    for (const entry of [
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'tsconfig.build.json',
      'src',
      'web',
      'scripts',
      'bin',
      'dist',
    ])
      cpSync(join(ROOT, entry), join(prod, entry), { recursive: true, preserveTimestamps: true });
    const parseable = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const packages = new Set<string>();
    for (const line of parseable.split('\n')) {
      const parts = line.slice(ROOT.length + 1).split('/');
      if (parts[0] !== 'node_modules' || !parts[1]) continue;
      packages.add(parts[1].startsWith('@') ? `${parts[1]}/${parts[2]}` : parts[1]);
    }
    expect(packages.has('fastify')).toBe(true);
    expect(packages.has('typescript')).toBe(false);
    expect(packages.has('vite')).toBe(false);
    // `npm prune` rewrites the lock file (same content, new modification time) after the build.
    touch(prod, 'package-lock.json', 5);
    for (const name of packages) {
      mkdirSync(dirname(join(prod, 'node_modules', name)), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules', name), join(prod, 'node_modules', name));
    }
    const data = join(temp, 'data-prod');
    mkdirSync(data);
    const service = await npmStart(prod, `sqlite:${join(data, 'x.db')}`);
    try {
      expect(service.log()).not.toMatch(/Building first|stale/);
      const page = await fetch(`${service.url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect((await fetch(`${service.url}/api/streamers`)).status).toBe(200);
    } finally {
      await service.stop();
    }
  });
});
