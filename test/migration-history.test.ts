/**
 * Issue 30, item 10: a migration released on main is never renamed or removed (a database that
 * ran it would stop starting), and a database that ran one renamed before this rule starts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { latestApplied, migrateToLatest, RENAMED_MIGRATIONS } from '../src/db/migrator.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { createTestDatabase, dbKind } from './helpers/database.ts';
import {
  mainLine,
  migrationFiles,
  migrationsInHistory,
  missingMigrations,
} from './helpers/migration-history.ts';

const ROOT = process.cwd();
const inGit = existsSync(join(ROOT, '.git'));
const temp = mkdtempSync(join(tmpdir(), 'migration-history-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' });

describe.runIf(dbKind === 'sqlite' && inGit)('released migration names', () => {
  it('every migration released on main is still here under its name (or carried over by the migrator)', () => {
    expect(missingMigrations(ROOT)).toEqual([]);
    // The registry lists exactly the files.
    expect(Object.keys(migrations).sort()).toEqual(migrationFiles(ROOT));
    // The history is read for real: main's first migrations and the one renamed before this check.
    const released = migrationsInHistory(ROOT, mainLine(ROOT));
    expect(released.has('001-initial')).toBe(true);
    expect(released.has('007-reaching-out')).toBe(true);
  });

  it('in a clean clone the check works, and fails when a released migration is renamed', () => {
    const clone = join(temp, 'clone');
    execFileSync('git', ['clone', '-q', '--no-local', ROOT, clone]);
    expect(missingMigrations(clone)).toEqual([]);
    renameSync(
      join(clone, 'src/db/migrations/002-audit-log.ts'),
      join(clone, 'src/db/migrations/002-audit.ts'),
    );
    git(clone, 'add', '-A');
    git(
      clone,
      '-c',
      'user.name=test',
      '-c',
      'user.email=test@example.invalid',
      'commit',
      '-qm',
      'rename a migration',
    );
    expect(missingMigrations(clone)).toEqual([
      expect.stringMatching(/^002-audit-log \(on main since \w+\) is gone$/),
    ]);
  });
});

describe('a database that ran a migration under the name it had before its rename', () => {
  it('starts: the migration gets its new name and the ones numbered before it run', async () => {
    const database = await createTestDatabase();
    try {
      const schema =
        dbKind === 'sqlite'
          ? undefined
          : (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0]
              ?.schema;
      const old = new Migrator({
        db: database.db,
        provider: { getMigrations: async () => migrations },
        ...(schema ? { migrationTableSchema: schema } : {}),
      });
      // What main held at ab62193: 001 to 006, then reaching out as 007.
      expect((await old.migrateTo('006-open-community')).error).toBeUndefined();
      await migrations['010-reaching-out']!.up(database.db);
      await sql`insert into kysely_migration (name, timestamp) values ('007-reaching-out', ${new Date().toISOString()})`.execute(
        database.db,
      );
      // Every later migration, without reaching out again under its new name.
      expect(await migrateToLatest(database.db)).toEqual(
        Object.keys(migrations)
          .sort()
          .filter((name) => name > '007' && name !== '010-reaching-out'),
      );
      const names = (
        await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db)
      ).rows.map((r) => r.name);
      expect(names).toEqual(Object.keys(migrations).sort());
      expect(Object.keys(RENAMED_MIGRATIONS)).toContain('007-reaching-out');
      expect(await migrateToLatest(database.db)).toEqual([]);
      expect(await latestApplied(database.db)).toBe(Object.keys(migrations).sort().at(-1));
    } finally {
      await database.cleanup();
    }
  });
});
