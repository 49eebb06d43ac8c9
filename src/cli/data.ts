import { sql } from 'kysely';
import { bigintColumns, moveIdsPastRows, tableColumns } from '../db/dialect.ts';
import type { DbContext } from '../db/context.ts';
import type { Db } from '../db/schema.ts';
import {
  ADDED_LATER,
  EXPORT_FORMAT,
  type ExportFile,
  EXPORTED_TABLES,
  ORDER_BY,
  SERIAL_TABLES,
  type Table,
} from './data-tables.ts';

/** Export and import of all data as JSON (the tables: data-tables.ts). */
export { EXPORTED_TABLES, NOT_EXPORTED } from './data-tables.ts';
import { writeTransaction } from '../db/transaction.ts';
import { foldCase } from '../shared/rules.ts';
import { foldName, foldsOnce, foldWords } from '../lib/names.ts';
import { repeatKey } from '../comments/rules.ts';
import { nameKey } from '../streamers/queries.ts';
import { deriveShown } from '../notifications/queries.ts';
import { legacyParams } from '../db/migrations/legacy-audit.ts';

/**
 * Columns the service derives from others (case-folded keys for lookups): made again on
 * import, so that a file from a version that had not got them, or folded differently, loads.
 */
const DERIVED: { [T in Table]?: Record<string, (row: Record<string, unknown>) => unknown> } = {
  users: {
    login_key: (row) => foldCase(String(row.login)),
    display_key: (row) => foldCase(String(row.display_name)),
    login_fold: (row) => foldName(String(row.login)),
    display_fold: (row) => foldName(String(row.display_name)),
  },
  streamers: { name_key: (row) => nameKey(String(row.name)) },
  comments: { repeat_key: (row) => repeatKey(String(row.body)) },
  hold_words: { fold: (row) => foldWords(String(row.word)) },
  // A file from before entries carried parameters: read back from the English summaries.
  audit_log: {
    params: (row) =>
      typeof row.params === 'string'
        ? row.params
        : legacyParams(
            String(row.action),
            String(row.summary),
            typeof row.details === 'string' ? row.details : null,
          ),
  },
};

/** Every column of every exported table, so that columns added later are exported unlisted. */
export async function exportData(db: Db, now = new Date()): Promise<ExportFile> {
  const tables = {} as ExportFile['tables'];
  for (const table of EXPORTED_TABLES) {
    const rows: Record<string, unknown>[] = await db
      .selectFrom(table)
      .selectAll()
      .orderBy(ORDER_BY[table] as never)
      .execute();
    // Numbers, as SQLite's export writes them (import takes either); the sums they hold stay
    // far below 2^53.
    const big = await bigintColumns(db, table);
    tables[table] = rows.map((row) => {
      for (const column of big) if (row[column] !== null) row[column] = Number(row[column]);
      return row;
    });
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
    // A file from before a table existed has none of its rows.
    if (file.tables[table] === undefined && ADDED_LATER.has(table)) file.tables[table] = [];
    if (!Array.isArray(file.tables[table])) throw new ImportError(`the file has no "${table}" list`);
  }
  return file as ExportFile;
}

/**
 * Imports everything in one transaction. Refuses a database that holds data unless `force`,
 * which first deletes it. Ids are kept, so every answer of the API is reproduced. Columns
 * the file lacks (it is older than the database) take their defaults; a column the database
 * lacks (the file is newer) is refused rather than dropped.
 */
export async function importData(
  database: DbContext,
  file: ExportFile,
  force: boolean,
): Promise<Record<Table, number>> {
  const { db } = database;
  if (!force && !(await isEmpty(db))) {
    throw new ImportError('the database is not empty; use --force to replace its data');
  }
  const counts = {} as Record<Table, number>;
  await writeTransaction(database, async (trx) => {
    const rows = {} as Record<Table, Record<string, unknown>[]>;
    for (const table of EXPORTED_TABLES) rows[table] = await prepareRows(trx, table, file.tables[table]);
    for (const table of [...EXPORTED_TABLES].reverse()) await trx.deleteFrom(table).execute();
    for (const table of EXPORTED_TABLES) {
      for (const batch of batches(rows[table])) {
        await trx.insertInto(table).values(batch).execute();
      }
      counts[table] = rows[table].length;
    }
    for (const table of SERIAL_TABLES) await moveIdsPastRows(trx, table);
    // Derived from other tables, not from the row: a notification about a hidden comment.
    await deriveShown(trx);
  });
  return counts;
}

/** The file's rows checked against the table's columns, with the derived columns made again. */
async function prepareRows(
  db: Db,
  table: Table,
  rows: Record<string, unknown>[],
): Promise<Record<string, unknown>[]> {
  const columns = await tableColumns(db, table);
  const derived = DERIVED[table] ?? {};
  const prepared = rows.map((row, i) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) {
      throw new ImportError(`"${table}" item ${i + 1} is not an object`);
    }
    for (const column of Object.keys(row)) {
      if (!columns.has(column)) {
        throw new ImportError(
          `the file's "${table}" rows have a column "${column}" that this database has not (is the file from a newer version?)`,
        );
      }
    }
    const made = Object.fromEntries(Object.entries(derived).map(([column, make]) => [column, make(row)]));
    return { ...row, ...made };
  });
  if (table === 'address_blocks') return oneBlockPerTag(prepared);
  return NAME_FOLDED.has(table) ? withNameFolds(prepared) : prepared;
}

/** A file from before migration 048 may block a tag twice: the block that ends last stays, as there. */
function oneBlockPerTag(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  const kept = new Map<unknown, Record<string, unknown>>();
  for (const row of rows) {
    const other = kept.get(row.guest_tag);
    const later =
      !other ||
      String(row.expires_at) > String(other.expires_at) ||
      (row.expires_at === other.expires_at && Number(row.id) > Number(other.id));
    if (later) kept.set(row.guest_tag, row);
  }
  return rows.filter((row) => kept.get(row.guest_tag) === row);
}

/** The tables whose names are unique by their fold: streamers (migration 045) and teams (047). */
const NAME_FOLDED: ReadonlySet<Table> = new Set(['streamers', 'rater_groups']);

/**
 * A table's `name_fold`, made again as migrations 045 and 047 made it: each fold held by the
 * oldest row whose name folds to it, so that a file from before the rule, with look-alike
 * names, loads whole.
 */
function withNameFolds(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  const byId = [...rows].sort((a, b) => Number(a.id) - Number(b.id));
  const folds = foldsOnce(byId.map((row) => String(row.name)));
  const fold = new Map(byId.map((row, i) => [row, folds[i]]));
  return rows.map((row) => ({ ...row, name_fold: fold.get(row) ?? null }));
}

/**
 * Up to 200 consecutive rows with the same columns: a multi-row insert gives a row that lacks
 * a column NULL on SQLite, not the column's default.
 */
function* batches(rows: Record<string, unknown>[]): Generator<Record<string, unknown>[]> {
  let batch: Record<string, unknown>[] = [];
  let shape = '';
  for (const row of rows) {
    const rowShape = Object.keys(row).join(',');
    if (batch.length === 200 || (batch.length > 0 && rowShape !== shape)) {
      yield batch;
      batch = [];
    }
    shape = rowShape;
    batch.push(row);
  }
  if (batch.length > 0) yield batch;
}
