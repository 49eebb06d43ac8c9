/** Databases stopped before a migration, to store rows as they were and migrate them. */
import { Migrator, sql } from 'kysely';
import { expect } from 'vitest';
import { migrations } from '../../src/db/migrations/index.ts';
import { dbKind, type TestDatabase } from './database.ts';

/** A migrator of this test database, so that it can stop before a migration. */
export async function migratorOf(db: TestDatabase['db']): Promise<Migrator> {
  const schema =
    dbKind === 'sqlite'
      ? undefined
      : (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema;
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

/** The database `db` migrated up to the migration before `name`. */
export async function migrateBefore(db: TestDatabase['db'], name: string): Promise<void> {
  const names = Object.keys(migrations);
  const previous = names[names.indexOf(name) - 1];
  expect((await (await migratorOf(db)).migrateTo(previous ?? '')).error).toBeUndefined();
}
