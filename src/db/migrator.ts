import { setTimeout as sleep } from 'node:timers/promises';
import { type Kysely, type MigrationResultSet, Migrator, sql } from 'kysely';
import { isSqlite, isUnavailable } from './dialect.ts';
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

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on any schema
type AnyDb = Kysely<any>;

/**
 * Runs every pending migration under a lock, so that several instances starting at once on
 * one database migrate it exactly once; throws when one fails, so a failed start never
 * exits 0. Returns the names of the migrations applied.
 */
export async function migrateToLatest(db: AnyDb): Promise<string[]> {
  const { error, results }: MigrationResultSet = isSqlite(db)
    ? await migrateSqlite(db)
    : // PostgreSQL: Kysely runs the migrations in one transaction holding an advisory lock.
      await (await migrator(db)).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new MigrationError(failed?.migrationName, error ?? 'unknown error');
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * SQLite: Kysely takes no lock there, so the whole run happens in one BEGIN IMMEDIATE
 * transaction on one connection; another process waits for it (and retries past the busy
 * timeout) and then finds nothing left to do. Foreign keys are off during the run, as
 * SQLite's table-rebuild procedure requires, and checked before the commit.
 */
async function migrateSqlite(db: AnyDb): Promise<MigrationResultSet> {
  return db.connection().execute(async (conn) => {
    await sql`pragma foreign_keys = off`.execute(conn);
    try {
      await beginImmediate(conn);
      try {
        const result = await (await migrator(conn)).migrateToLatest();
        const broken = await sql`pragma foreign_key_check`.execute(conn);
        if (result.error || result.results?.some((r) => r.status === 'Error') || broken.rows.length > 0) {
          await sql`rollback`.execute(conn);
          return broken.rows.length > 0 && !result.error
            ? { ...result, error: new Error(`foreign key check failed: ${JSON.stringify(broken.rows[0])}`) }
            : result;
        }
        await sql`commit`.execute(conn);
        return result;
      } catch (err) {
        await sql`rollback`.execute(conn).catch(() => undefined);
        throw err;
      }
    } finally {
      await sql`pragma foreign_keys = on`.execute(conn);
    }
  });
}

async function beginImmediate(conn: AnyDb): Promise<void> {
  for (;;) {
    try {
      await sql`begin immediate`.execute(conn);
      return;
    } catch (err) {
      // Another instance is migrating longer than the busy timeout: keep waiting for it.
      if (!isUnavailable(err)) throw err;
      await sleep(200);
    }
  }
}

async function migrator(db: AnyDb): Promise<Migrator> {
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
