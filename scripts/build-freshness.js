// @ts-check
// Whether dist/ holds a build of the current sources: the one rule that `npm start`'s check
// (scripts/build-if-stale.js), the drawing process run from the source (src/images/drawer.ts)
// and the tests' choice of the build or the source (test/helpers/service.ts) ask. Plain
// Node.js, no dependency, typed by its comments (tsc checks it; the service's build compiles it
// into dist/scripts/ and the bundle): it runs before any build, in a production install too.
//
// The build is current when dist/.build-stamp (written by `npm run build` at its end) is
// newer than every source: src/, web/ (but its generated client and anything installed),
// scripts/ and the TypeScript configurations; package.json and package-lock.json count by
// their content (the stamp holds its hash), because `npm prune` rewrites the lock file
// unchanged after the build.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The build's stamp, from the project's folder. */
export const STAMP = join('dist', '.build-stamp');
/** The service's built entry, from the project's folder. */
export const MAIN = join('dist', 'src', 'main.js');
const SOURCE_DIRS = ['src', 'web', 'scripts'];
const SOURCE_FILES = ['tsconfig.json', 'tsconfig.build.json'];
const PACKAGE_FILES = ['package.json', 'package-lock.json'];
/** Outputs and installs inside the source folders, and the release script: never sources. */
// (scripts/release.js packs a build and is no part of it.)
const SKIP = new Set(['node_modules', 'dist', 'generated', '.svelte-kit', 'release.js']);

/**
 * The newest source file under `root` and its modification time (ms), walked without recursion.
 * @param {string} root
 */
function newestSource(root) {
  let newest = { file: '', mtime: 0 };
  /** @param {string} file */
  const consider = (file) => {
    const mtime = statSync(file).mtimeMs;
    if (mtime > newest.mtime) newest = { file, mtime };
  };
  for (const file of SOURCE_FILES) if (existsSync(join(root, file))) consider(join(root, file));
  const stack = SOURCE_DIRS.map((dir) => join(root, dir)).filter((dir) => existsSync(dir));
  for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIP.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else if (entry.isFile()) consider(path);
    }
  }
  return newest;
}

/**
 * The package files' content under `root`, as the stamp records it.
 * @param {string} root
 * @returns {string}
 */
export function packagesHash(root) {
  const hash = createHash('sha256');
  for (const file of PACKAGE_FILES) {
    const path = join(root, file);
    hash.update(`${file}\0${existsSync(path) ? readFileSync(path, 'utf8') : ''}\0`);
  }
  return hash.digest('hex');
}

/**
 * Why the build in `root` must be redone, or null when it is current. `built` is the built
 * file the caller runs (the service's entry by default): a build without it, or without its
 * stamp (a build that did not finish), is no build.
 * @param {string} root
 * @param {string} [built]
 * @returns {string | null}
 */
export function staleReason(root, built = MAIN) {
  const stamp = join(root, STAMP);
  if (!existsSync(stamp) || !existsSync(join(root, built))) return 'no build yet';
  const builtAt = statSync(stamp).mtimeMs;
  const newest = newestSource(root);
  if (newest.mtime > builtAt) return `${relative(root, newest.file)} changed after the last build`;
  const recorded = /packages ([0-9a-f]{64})/.exec(readFileSync(stamp, 'utf8'))?.[1];
  if (recorded !== packagesHash(root))
    return 'package.json or package-lock.json changed after the last build';
  return null;
}
