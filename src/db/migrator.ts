import { type Kysely, type MigrationResultSet, Migrator } from 'kysely';
import { migrations } from './migrations/index.ts';

export class MigrationError extends Error {
  constructor(name: string | undefined, cause: unknown) {
    super(
      `Database migration ${name ? `"${name}" ` : ''}failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'MigrationError';
  }
}

/** Runs every pending migration; throws when one fails, so a failed start never exits 0. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on any schema
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results }: MigrationResultSet = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new MigrationError(failed?.migrationName, error ?? 'unknown error');
  return (results ?? []).map((r) => r.migrationName);
}
