import { writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { Opened } from '../db/connect.ts';
import { isSqlite } from '../db/dialect.ts';
import type { Database, Db } from '../db/schema.ts';
import { writeTransaction } from '../db/transaction.ts';

/**
 * Export and import of all data as JSON, secrets and sessions excepted. Tables are listed in
 * an order where every row's foreign keys point to rows already inserted.
 */
export const EXPORTED_TABLES = [
  'users',
  'moderators',
  'streamers',
  'ratings',
  'rater_groups',
  'rater_group_members',
  'comments',
  'community_ratings',
  'settings',
  'audit_log',
] as const satisfies readonly (keyof Database)[];
type Table = (typeof EXPORTED_TABLES)[number];

/** Tables whose `id` comes from a sequence on PostgreSQL. */
const SERIAL_TABLES: Table[] = [
  'users',
  'streamers',
  'rater_groups',
  'rater_group_members',
  'comments',
  'community_ratings',
  'audit_log',
];

export const EXPORT_FORMAT = 'streamer-rating-export';

export interface ExportFile {
  format: typeof EXPORT_FORMAT;
  version: 1;
  exported_at: string;
  tables: Record<Table, Record<string, unknown>[]>;
}

export async function exportData(db: Db, now = new Date()): Promise<ExportFile> {
  const tables = {} as ExportFile['tables'];
  for (const table of EXPORTED_TABLES) {
    const order =
      table === 'moderators'
        ? 'user_id'
        : table === 'ratings'
          ? 'streamer_id'
          : table === 'settings'
            ? 'key'
            : 'id';
    tables[table] = (await db
      .selectFrom(table)
      .selectAll()
      .orderBy(order as never)
      .execute()) as Record<string, unknown>[];
  }
  return { format: EXPORT_FORMAT, version: 1, exported_at: now.toISOString(), tables };
}

export async function isEmpty(db: Db): Promise<boolean> {
  for (const table of EXPORTED_TABLES) {
    if (
      await db
        .selectFrom(table)
        .select(sql`1`.as('x'))
        .limit(1)
        .executeTakeFirst()
    )
      return false;
  }
  return true;
}

export class ImportError extends Error {}

export function parseExport(text: string): ExportFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ImportError('the file is not JSON');
  }
  const file = data as Partial<ExportFile>;
  if (
    file?.format !== EXPORT_FORMAT ||
    file.version !== 1 ||
    typeof file.tables !== 'object' ||
    !file.tables
  ) {
    throw new ImportError(`the file is not a ${EXPORT_FORMAT} version 1 file`);
  }
  for (const table of EXPORTED_TABLES) {
    if (!Array.isArray(file.tables[table])) throw new ImportError(`the file has no "${table}" list`);
  }
  return file as ExportFile;
}

/**
 * Imports everything in one transaction. Refuses a database that holds data unless `force`,
 * which first deletes it. Ids are kept, so every answer of the API is reproduced.
 */
export async function importData(db: Db, file: ExportFile, force: boolean): Promise<Record<Table, number>> {
  if (!force && !(await isEmpty(db))) {
    throw new ImportError('the database is not empty; use --force to replace its data');
  }
  const counts = {} as Record<Table, number>;
  await writeTransaction(db, async (trx) => {
    for (const table of [...EXPORTED_TABLES].reverse()) await trx.deleteFrom(table).execute();
    for (const table of EXPORTED_TABLES) {
      const rows = file.tables[table];
      for (let i = 0; i < rows.length; i += 200) {
        await trx
          .insertInto(table)
          .values(rows.slice(i, i + 200) as never)
          .execute();
      }
      counts[table] = rows.length;
    }
    if (!isSqlite(trx)) {
      for (const table of SERIAL_TABLES) {
        await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)`.execute(
          trx,
        );
      }
    }
  });
  return counts;
}

/** A consistent copy of a running SQLite database (SQLite's online backup). */
export async function backupSqlite(opened: Opened, file: string): Promise<void> {
  if (!opened.sqlite) {
    throw new ImportError('backup copies SQLite databases; for PostgreSQL use pg_dump (see README.md)');
  }
  await opened.sqlite.backup(file);
}

export function writeJson(file: string, data: unknown): void {
  const text = JSON.stringify(data, null, 1);
  if (file === '-') process.stdout.write(text + '\n');
  else writeFileSync(file, text);
}
