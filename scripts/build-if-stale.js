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
// Whether the build is current is scripts/build-freshness.js's rule, which the drawing process
// and the tests ask too. The stamp also records the commit built (git's, when there is one):
// the version the service reports (src/lib/version.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packagesHash, STAMP, staleReason } from './build-freshness.js';

const root = process.cwd();

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
    `built ${new Date().toISOString()}\npackages ${packagesHash(root)}\n${commit ? `commit ${commit}\n` : ''}`,
  );
} else {
  const reason = staleReason(root);
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
