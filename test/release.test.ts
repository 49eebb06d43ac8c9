import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dbKind } from './helpers/database.ts';
import { ROOT, Service } from './helpers/service.ts';
import { createSqlite } from './soak/lib/database.ts';

/**
 * Issue 45 item 23: a release archive with the built service and page, so that an upgrade is
 * an unpack and a restart. `npm run release` builds and runs scripts/release.js; here the
 * script packs the current build (`npm test` builds first when the build is stale; without a
 * current build this file says so and skips), the archive is unpacked in a folder with no git,
 * and the service starts from it with `npm start` as an operator runs it.
 */
const built =
  spawnSync(process.execPath, ['scripts/build-if-stale.js', '--check'], { cwd: ROOT, encoding: 'utf8' })
    .status === 0;
if (!built) console.log('\n*** test/release.test.ts SKIPPED: the build is stale (npm run build). ***\n');

const dir = mkdtempSync(join(tmpdir(), 'release-test-'));
let service: Service | null = null;
afterAll(async () => {
  await service?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.runIf(built && dbKind === 'sqlite')('the release archive', () => {
  it('holds the build, the page, the migrations and the package files; the service starts from it unpacked', async () => {
    const made = spawnSync(process.execPath, ['scripts/release.js', '--out', join(dir, 'out')], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(made.status, made.stderr).toBe(0);
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const commit = /^commit ([0-9a-f]+)$/m.exec(
      readFileSync(join(ROOT, 'dist', '.build-stamp'), 'utf8'),
    )?.[1];
    const full = commit ? `${version}+${commit}` : version;
    const archive = join(dir, 'out', `streamer-rating-${full}.tgz`);
    expect(made.stdout.trim()).toBe(archive);

    // Unpacked where there is no git, as on a server.
    const server = join(dir, 'srv');
    mkdirSync(server);
    const unpacked = spawnSync('tar', ['-xzf', archive, '-C', server], { encoding: 'utf8' });
    expect(unpacked.status, unpacked.stderr).toBe(0);
    expect(readdirSync(server)).toEqual([`streamer-rating-${full}`]);
    const home = join(server, `streamer-rating-${full}`);
    for (const file of [
      'dist/src/main.js',
      'dist/.build-stamp',
      'dist/web/index.html',
      'dist/ssr/ssr.js',
      'bin/streamer-rating.js',
      'package.json',
      'package-lock.json',
      'scripts/build-if-stale.js',
      'scripts/build-freshness.js',
      'deploy/streamer-rating@.service',
    ])
      expect(existsSync(join(home, file)), file).toBe(true);
    expect(readdirSync(join(home, 'dist/src/db/migrations')).some((f) => /^\d{3}-.*\.js$/.test(f))).toBe(
      true,
    );
    for (const absent of ['src', 'web', 'test', 'node_modules', '.git'])
      expect(existsSync(join(home, absent)), absent).toBe(false);

    // `npm ci --omit=dev` would install the dependencies from the registry; the project's own
    // stand in. `npm start` finds the build current (nothing is built) and starts it.
    symlinkSync(join(ROOT, 'node_modules'), join(home, 'node_modules'));
    const database = createSqlite();
    service = await Service.start({
      databaseUrl: database.url,
      via: 'npm start',
      cwd: home,
      name: 'from the archive',
    });
    expect(service.grep(/Building first/)).toEqual([]);
    const health = (await (await fetch(`${service.url}/healthz?detail=1`)).json()) as {
      ok: boolean;
      version: string;
    };
    // The version the build stamped, with no git to ask.
    expect(health).toMatchObject({ ok: true, version: full });
    const page = await fetch(`${service.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  }, 120_000);
});
