/**
 * Issue 30, item 10: the version a running instance reports, and the migrations of its
 * database and of its build, for an operator checking an upgrade.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { migrations } from '../src/db/migrations/index.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { latestKnown } from '../src/db/migrator.ts';
import { versionOf } from '../src/lib/version.ts';
import { useApp } from './helpers/app.ts';

const TOKEN = 'versions-test-metrics-token-0123';
const t = await useApp({ METRICS_TOKEN: TOKEN });
const { version: packaged } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const git = (args: string[], cwd = '.') =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();
/** What runs here: package.json's version with the checkout's commit (issue 45 item 22). */
const version = `${packaged}+${git(['rev-parse', '--short', 'HEAD'])}`;

describe('versions', () => {
  it('package.json has a version, and CHANGELOG.md an Unreleased section and an entry for each release', () => {
    expect(packaged).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
    const changelog = readFileSync('CHANGELOG.md', 'utf8');
    expect(changelog).toMatch(/^## \[Unreleased\]$/m);
    const released = packaged.replace(/-.*$/, '');
    // A pre-release (x.y.z-dev) is the Unreleased section on its way to x.y.z; x.y.z has its entry.
    if (released === packaged) expect(changelog).toContain(`## [${packaged}]`);
  });

  it('/healthz?detail=1 answers the version and the newest migration of the database and of the build', async () => {
    const res = await t.client().get('/healthz?detail=1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      version,
      migrations: { database: latestKnown(), build: latestKnown() },
    });
    expect(latestKnown()).toBe(Object.keys(migrations).sort().at(-1));
    // Without detail it stays the load balancers' short answer.
    expect((await t.client().get('/healthz')).body).toEqual({ ok: true });
  });

  it('the metrics carry build_info{version} 1', async () => {
    // (fetch: the exposition's media type has a parameter the contract checker does not read.)
    const res = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`build_info{version="${version}"} 1`);
  });
});

describe('the version names the commit (issue 45 item 22)', () => {
  const dirs: string[] = [];
  const project = (pkgVersion: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'version-'));
    dirs.push(dir);
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'streamer-rating', version: pkgVersion }),
    );
    mkdirSync(join(dir, 'dist', 'src'), { recursive: true });
    mkdirSync(join(dir, 'src', 'lib'), { recursive: true });
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it("run from a checkout, it is package.json's version with the commit: 0.4.0-dev+<short commit>", () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?\+[0-9a-f]{7,40}$/);
    expect(versionOf(resolve('src/lib'))).toBe(version);
  });

  it('a build keeps the commit its stamp recorded, where there is no git (an unpacked archive)', () => {
    const dir = project('9.9.9-dev');
    writeFileSync(
      join(dir, 'dist', '.build-stamp'),
      'built 2026-01-01T00:00:00.000Z\npackages x\ncommit abc1234\n',
    );
    expect(versionOf(join(dir, 'dist', 'src'))).toBe('9.9.9-dev+abc1234');
    // Not a checkout, not stamped: the package's version alone.
    expect(versionOf(join(dir, 'src', 'lib'))).toBe('9.9.9-dev');
    writeFileSync(join(dir, 'dist', '.build-stamp'), 'built 2026-01-01T00:00:00.000Z\npackages x\n');
    expect(versionOf(join(dir, 'dist', 'src'))).toBe('9.9.9-dev');
  });

  it("the build's last step stamps the commit it built", () => {
    const dir = project('9.9.9');
    git(['init', '-q'], dir);
    git(['add', 'package.json'], dir);
    git(['commit', '-qm', 'one'], dir);
    const stamped = spawnSync(process.execPath, [resolve('scripts/build-if-stale.js'), '--stamp'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(stamped.status, stamped.stderr).toBe(0);
    const commit = git(['rev-parse', '--short', 'HEAD'], dir);
    expect(readFileSync(join(dir, 'dist', '.build-stamp'), 'utf8')).toContain(`\ncommit ${commit}\n`);
    expect(versionOf(join(dir, 'dist', 'src'))).toBe(`9.9.9+${commit}`);
  });
});
