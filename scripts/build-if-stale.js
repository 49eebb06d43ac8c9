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
// scripts/, package.json, package-lock.json and the TypeScript configurations.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = process.cwd();
export const STAMP = join('dist', '.build-stamp');
const SOURCE_DIRS = ['src', 'web', 'scripts'];
const SOURCE_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
/** Outputs and installs inside the source folders: never sources. */
const SKIP = new Set(['node_modules', 'dist', 'generated', '.svelte-kit']);

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

/** Why the build must be redone, or null when it is current. */
export function staleReason() {
  const stamp = join(root, STAMP);
  if (!existsSync(stamp) || !existsSync(join(root, 'dist', 'src', 'main.js'))) return 'no build yet';
  const built = statSync(stamp).mtimeMs;
  const newest = newestSource();
  return newest.mtime > built ? `${relative(root, newest.file)} changed after the last build` : null;
}

const arg = process.argv[2];
if (arg === '--stamp') {
  writeFileSync(join(root, STAMP), `${new Date().toISOString()}\n`);
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
