// `npm run release` (after `npm run build`): the release archive, what an upgrade unpacks on a
// server instead of building there (issue 45 item 23; docs/deploy.md "Upgrades").
//
//   node scripts/release.js [--out DIR]    writes DIR/streamer-rating-<version>.tgz (release/)
//
// The archive holds one folder, streamer-rating-<version>/, with the build (dist/: the
// service, its migrations, the page; its stamp names the commit), bin/, package.json and
// package-lock.json, scripts/build-if-stale.js and build-freshness.js (`npm start`'s check that
// the build is current), deploy/ and the notes. Installing it: unpack, `npm ci --omit=dev`,
// restart. Plain Node.js and tar, no dependency; it refuses a missing or stale build.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = process.cwd();
const outAt = process.argv.indexOf('--out');
const out = resolve(outAt > 0 ? process.argv[outAt + 1] : 'release');

/** What the archive holds, from the project's folder. */
const CONTENTS = [
  'dist',
  'bin',
  'package.json',
  'package-lock.json',
  'scripts/build-if-stale.js',
  'scripts/build-freshness.js',
  'deploy',
  'README.md',
  'CHANGELOG.md',
  'LICENSE',
];

const check = spawnSync(process.execPath, ['scripts/build-if-stale.js', '--check'], {
  cwd: root,
  encoding: 'utf8',
});
if (check.status !== 0) {
  console.error(`${check.stdout.trim()}: run \`npm run build\` first (\`npm run release\` does).`);
  process.exit(1);
}

const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const commit = /^commit ([0-9a-f]+)$/m.exec(readFileSync(join(root, 'dist', '.build-stamp'), 'utf8'))?.[1];
const full = commit ? `${version}+${commit}` : version;
const folder = `${name}-${full}`;

// Copied into a folder of that name first (keeping modification times: the build's stamp
// must stay newer than scripts/), then packed.
const staging = mkdtempSync(join(tmpdir(), 'release-'));
try {
  for (const entry of CONTENTS) {
    if (!existsSync(join(root, entry))) continue;
    cpSync(join(root, entry), join(staging, folder, entry), { recursive: true, preserveTimestamps: true });
  }
  mkdirSync(out, { recursive: true });
  const archive = join(out, `${folder}.tgz`);
  const tar = spawnSync('tar', ['-czf', archive, '-C', staging, '--owner=0', '--group=0', folder], {
    stdio: 'inherit',
  });
  if (tar.status !== 0) process.exit(tar.status ?? 1);
  console.log(archive);
} finally {
  rmSync(staging, { recursive: true, force: true });
}
