// `npm start`'s prestart: builds only when the build is missing or older than its sources, so
// that a restart on a current build starts at once (issue 18: every start rebuilt everything,
// 13-19 s of downtime, and needed the development dependencies). Plain Node.js, no
// dependency: it runs in a production install (`npm ci && npm run build && npm prune
// --omit=dev`), where the build cannot be redone and need not be.
//
//   node scripts/build-if-stale.js           build when stale, else nothing
//   node scripts/build-if-stale.js --check   exit 0 when current, 1 when stale (nothing built)
//   node scripts/build-if-stale.js --stamp   the build's last step: mark it current
//
// The build is current when dist/.build-stamp (written by `npm run build` at its end) is
// newer than every source: src/, web/ (but its generated client and anything installed),
// scripts/ and the TypeScript configurations; package.json and package-lock.json count by
// their content (the stamp holds its hash), because `npm prune` rewrites the lock file
// unchanged after the build. The stamp also records the commit built (git's, when there is
// one): the version the service reports (src/lib/version.ts).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = process.cwd();
export const STAMP = join('dist', '.build-stamp');
const SOURCE_DIRS = ['src', 'web', 'scripts'];
const SOURCE_FILES = ['tsconfig.json', 'tsconfig.build.json'];
const PACKAGE_FILES = ['package.json', 'package-lock.json'];
/** Outputs and installs inside the source folders, and the release script: never sources. */
// (scripts/release.js packs a build and is no part of it.)
const SKIP = new Set(['node_modules', 'dist', 'generated', '.svelte-kit', 'release.js']);

/** The newest source file and its modification time (ms), walked without recursion. */
function newestSource() {
  let newest = { file: '', mtime: 0 };
  const consider = (file) => {
    const mtime = statSync(file).mtimeMs;
    if (mtime > newest.mtime) newest = { file, mtime };
  };
  for (const file of SOURCE_FILES) if (existsSync(join(root, file))) consider(join(root, file));
  const stack = SOURCE_DIRS.map((dir) => join(root, dir)).filter((dir) => existsSync(dir));
  while (stack.length > 0) {
    const dir = stack.pop();
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIP.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else if (entry.isFile()) consider(path);
    }
  }
  return newest;
}

/** The package files' content, as the stamp records it. */
function packagesHash() {
  const hash = createHash('sha256');
  for (const file of PACKAGE_FILES) {
    const path = join(root, file);
    hash.update(`${file}\0${existsSync(path) ? readFileSync(path, 'utf8') : ''}\0`);
  }
  return hash.digest('hex');
}

/** Why the build must be redone, or null when it is current. */
export function staleReason() {
  const stamp = join(root, STAMP);
  if (!existsSync(stamp) || !existsSync(join(root, 'dist', 'src', 'main.js'))) return 'no build yet';
  const built = statSync(stamp).mtimeMs;
  const newest = newestSource();
  if (newest.mtime > built) return `${relative(root, newest.file)} changed after the last build`;
  const recorded = /packages ([0-9a-f]{64})/.exec(readFileSync(stamp, 'utf8'))?.[1];
  if (recorded !== packagesHash()) return 'package.json or package-lock.json changed after the last build';
  return null;
}

/** The commit being built, for the version the service reports (src/lib/version.ts); null without git. */
function commitBuilt() {
  const git = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' });
  const commit = git.status === 0 ? git.stdout.trim() : '';
  return /^[0-9a-f]{4,40}$/.test(commit) ? commit : null;
}

const arg = process.argv[2];
if (arg === '--stamp') {
  const commit = commitBuilt();
  writeFileSync(
    join(root, STAMP),
    `built ${new Date().toISOString()}\npackages ${packagesHash()}\n${commit ? `commit ${commit}\n` : ''}`,
  );
} else {
  const reason = staleReason();
  if (arg === '--check') {
    console.log(reason === null ? 'build is current' : `build is stale: ${reason}`);
    process.exit(reason === null ? 0 : 1);
  }
  if (reason !== null) {
    if (!existsSync(join(root, 'node_modules', 'typescript'))) {
      console.error(
        `The build is stale (${reason}) and the development dependencies are not installed: ` +
          'run `npm ci && npm run build` (then `npm prune --omit=dev` if you like) and start again.',
      );
      process.exit(1);
    }
    console.log(`Building first: ${reason}.`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const run = spawnSync(npm, ['run', 'build'], { stdio: 'inherit' });
    process.exit(run.status ?? 1);
  }
}
