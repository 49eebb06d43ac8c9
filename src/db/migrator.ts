import { setTimeout as sleep } from 'node:timers/promises';
import { type Kysely, type MigrationResultSet, Migrator, sql } from 'kysely';
import { isSqlite, isUnavailable } from './dialect.ts';
import { migrations } from './migrations/index.ts';
import { ascending } from '../lib/order.ts';

export class MigrationError extends Error {
  constructor(name: string | undefined, cause: unknown) {
    super(
      `Database migration ${name ? `"${name}" ` : ''}failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'MigrationError';
  }
}

/**
 * The migrations a database ran that this build does not know (a name renamed after its
 * release is known): the database was written by a newer version. Asked by the start and by
 * `streamer-rating restore` before a copy replaces a database.
 */
export const newerMigrations = (names: readonly string[]): string[] =>
  names.filter((n) => !Object.hasOwn(migrations, n) && !Object.hasOwn(RENAMED_MIGRATIONS, n));

/** How a database or a copy written by a newer version is said, after its name. */
export const writtenByNewer = (unknown: readonly string[]): string =>
  `was written by a newer version (migration ${unknown.join(', ')} is unknown to this one)`;

/**
 * A start on a database a newer version migrated: a version rolled back without restoring the
 * backup made before the upgrade, or an instance left on the old version. Said as what it is,
 * not as Kysely's "corrupted migrations: previously executed migration ... is missing", and
 * before anything runs.
 */
export class NewerDatabaseError extends Error {
  constructor(unknown: readonly string[]) {
    super(
      `the database ${writtenByNewer(unknown)}: start that version, or restore the backup made before the upgrade (docs/deploy.md "Upgrades")`,
    );
    this.name = 'NewerDatabaseError';
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
      await (await migrator(db, await renameReleased(db))).migrateToLatest();
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
        const result = await (await migrator(conn, await renameReleased(conn))).migrateToLatest();
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

/**
 * Migrations renamed after a release had run them, old name to new: never again
 * (test/migration-history.test.ts fails when a name that was on main disappears). `007-reaching-out`
 * became `010-reaching-out` when main's 008 and 009 came first; a database that ran it under
 * its old name stopped every later start ("previously executed migration 007-reaching-out is
 * missing").
 */
export const RENAMED_MIGRATIONS: Readonly<Record<string, string>> = Object.freeze({
  '007-reaching-out': '010-reaching-out',
});

/**
 * Gives migrations that ran under an old name their new one. Answers whether the run must
 * allow migrations out of their order: when migrations numbered before a renamed one are still
 * pending (008 and 009 before 010), or ran after it (Kysely orders what ran by its time, and
 * would then find 010 before 008 on every start). Asked of the table, not of this run's
 * rename, so that an instance that finds the rename already made by another does the same.
 */
async function renameReleased(db: AnyDb): Promise<boolean> {
  const exists = isSqlite(db)
    ? (await sql`select 1 from sqlite_schema where type = 'table' and name = 'kysely_migration'`.execute(db))
        .rows
    : (
        await sql`select 1 from information_schema.tables where table_schema = current_schema() and table_name = 'kysely_migration'`.execute(
          db,
        )
      ).rows;
  if (exists.length === 0) return false;
  for (const [from, to] of Object.entries(RENAMED_MIGRATIONS)) {
    await sql`update kysely_migration set name = ${to}
      where name = ${from} and not exists (select 1 from kysely_migration where name = ${to})`.execute(db);
  }
  const { rows } = await sql<{
    name: string;
    timestamp: string;
  }>`select name, timestamp from kysely_migration`.execute(db);
  const byTime = rows
    .sort(
      (a, b) =>
        new Date(a.timestamp).getTime() - new Date(b.timestamp).getTime() || ascending(a.name, b.name),
    )
    .map((r) => r.name);
  const newer = newerMigrations(byTime);
  if (newer.length > 0) throw new NewerDatabaseError(newer);
  return Object.values(RENAMED_MIGRATIONS).some((renamed) => {
    const at = byTime.indexOf(renamed);
    if (at < 0) return false;
    const pendingBefore = Object.keys(migrations).some((m) => m < renamed && !byTime.includes(m));
    const ranAfter = byTime.slice(at + 1).some((m) => m < renamed);
    return pendingBefore || ranAfter;
  });
}

/** The newest migration applied to the database, or null before the first (/healthz?detail=1). */
export async function latestApplied(db: AnyDb): Promise<string | null> {
  try {
    const { rows } = await sql<{
      name: string;
    }>`select name from kysely_migration order by name desc limit 1`.execute(db);
    return rows[0]?.name ?? null;
  } catch (err) {
    if (isUnavailable(err)) throw err;
    return null;
  }
}

/** The newest migration this build knows. */
export const latestKnown = (): string => Object.keys(migrations).sort().at(-1) ?? '';

/** Kysely's migrator of `db`, its bookkeeping in the schema in use (the tests stop it before a migration). */
export async function migrator(db: AnyDb, unordered = false): Promise<Migrator> {
  // On PostgreSQL the bookkeeping tables live in the schema in use; Kysely would otherwise
  // mistake another schema's tables for ours.
  const schema = isSqlite(db)
    ? undefined
    : (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema;
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
    ...(unordered ? { allowUnorderedMigrations: true } : {}),
    // The names' code-unit order, as `latestKnown` sorts them (lib/order.ts).
    nameComparator: ascending,
  });
}
