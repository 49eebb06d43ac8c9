/** Databases stopped before a migration, to store rows as they were and migrate them. */
import type { Migrator } from 'kysely';
import { expect } from 'vitest';
import { migrations } from '../../src/db/migrations/index.ts';
import { migrator } from '../../src/db/migrator.ts';
import type { TestDatabase } from './database.ts';

/** A migrator of this test database, so that it can stop before a migration. */
export const migratorOf = (db: TestDatabase['db']): Promise<Migrator> => migrator(db);

/** The database `db` migrated up to the migration before `name`. */
export async function migrateBefore(db: TestDatabase['db'], name: string): Promise<void> {
  const names = Object.keys(migrations);
  const previous = names[names.indexOf(name) - 1];
  expect((await (await migratorOf(db)).migrateTo(previous ?? '')).error).toBeUndefined();
}
