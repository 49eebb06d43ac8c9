import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The build's stamp (scripts/build-if-stale.js `--stamp`), in the project's folder. */
export const BUILD_STAMP = join('dist', '.build-stamp');

/** The project's folder and package.json version, found upwards from `dir`. */
function projectOf(dir: string): { root: string; version: string } | null {
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'streamer-rating' && pkg.version) return { root: dir, version: pkg.version };
    }
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** The commit the build was made from, as its stamp records it (null: not stamped, no git then). */
function stampedCommit(root: string): string | null {
  const stamp = join(root, BUILD_STAMP);
  if (!existsSync(stamp)) return null;
  return /^commit ([0-9a-f]{4,40})$/m.exec(readFileSync(stamp, 'utf8'))?.[1] ?? null;
}

/** The checkout's commit, for a run from the sources (null without git). */
function checkedOutCommit(root: string): string | null {
  try {
    const out = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return /^[0-9a-f]{4,40}$/.test(out) ? out : null;
  } catch {
    return null;
  }
}

/**
 * The version of the code in `dir` (issue 45 item 22): package.json's `version` (CHANGELOG.md
 * says what each holds) with the commit it was built from as build metadata,
 * `0.4.0-dev+1a2b3c4`. A build (dist/) carries the commit its stamp recorded, so an archive
 * unpacked where there is no git still says it; a run from the sources asks git. Without
 * either, package.json's version alone.
 */
export function versionOf(dir: string): string {
  const project = projectOf(dir);
  if (!project) return 'unknown';
  const built = dir.startsWith(join(project.root, 'dist') + sep);
  const commit = built ? stampedCommit(project.root) : checkedOutCommit(project.root);
  return commit ? `${project.version}+${commit}` : project.version;
}

/** This code's version: run from the sources (src/lib), bundled (dist/src) or as the CLI's modules. */
export const VERSION = versionOf(dirname(fileURLToPath(import.meta.url)));
