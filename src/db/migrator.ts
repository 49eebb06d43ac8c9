import { type Kysely, type MigrationResultSet, Migrator, sql } from 'kysely';
import { isSqlite } from './dialect.ts';
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
  const { error, results }: MigrationResultSet = await (await migrator(db)).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new MigrationError(failed?.migrationName, error ?? 'unknown error');
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
async function migrator(db: Kysely<any>): Promise<Migrator> {
  // On PostgreSQL the bookkeeping tables live in the schema in use; Kysely would otherwise
  // mistake another schema's tables for ours.
  const schema = isSqlite(db)
    ? undefined
    : (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema;
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}
