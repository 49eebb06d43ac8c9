/**
 * The check that released migrations keep their names (issue 30, item 10): every migration
 * file that was ever added on main's first-parent line must still be there, under its name,
 * or be in RENAMED_MIGRATIONS (which the migrator carries over for databases that ran it).
 * A database remembers the names of the migrations it ran; one that disappears stops every
 * later start of such a database.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { RENAMED_MIGRATIONS } from '../../src/db/migrator.ts';

const MIGRATIONS = 'src/db/migrations';

const git = (dir: string, args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' });

/** The migration names of a folder's files (`001-initial.ts` is `001-initial`). */
export const migrationFiles = (dir: string): string[] =>
  readdirSync(join(dir, MIGRATIONS))
    .filter((f) => /^\d{3}-.+\.ts$/.test(f))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();

/**
 * The line of main this checkout stands on: where it meets `main` (or `origin/main`); a
 * checkout without either is checked against its own first-parent line.
 */
export function mainLine(dir: string): string {
  for (const ref of ['main', 'origin/main']) {
    try {
      git(dir, ['rev-parse', '--verify', '-q', `${ref}^{commit}`]);
      return git(dir, ['merge-base', 'HEAD', ref]).trim();
    } catch {
      // not this one
    }
  }
  return 'HEAD';
}

/** Every migration name ever added on `ref`'s first-parent line, with the commit that added it. */
export function migrationsInHistory(dir: string, ref: string): Map<string, string> {
  if (git(dir, ['rev-parse', '--is-shallow-repository']).trim() === 'true') {
    throw new Error(
      `${dir} is a shallow clone: the migration history needs all of it (git fetch --unshallow)`,
    );
  }
  const out = git(dir, [
    'log',
    '--first-parent',
    '--no-renames',
    '--diff-filter=A',
    '--name-only',
    '--format=commit %h',
    ref,
    '--',
    `${MIGRATIONS}/`,
  ]);
  const found = new Map<string, string>();
  let commit = '';
  for (const line of out.split('\n')) {
    if (line.startsWith('commit ')) commit = line.slice('commit '.length);
    const m = new RegExp(`^${MIGRATIONS}/(\\d{3}-.+)\\.ts$`).exec(line);
    // Oldest last in the log: the commit that first added the name wins.
    if (m?.[1]) found.set(m[1], commit);
  }
  return found;
}

/** What disappeared: each released name that is neither a file now nor renamed to one. */
export function missingMigrations(dir: string): string[] {
  const now = new Set(migrationFiles(dir));
  return [...migrationsInHistory(dir, mainLine(dir))]
    .filter(([name]) => !now.has(name) && !now.has(RENAMED_MIGRATIONS[name] ?? ''))
    .map(([name, commit]) => `${name} (on main since ${commit}) is gone`);
}
