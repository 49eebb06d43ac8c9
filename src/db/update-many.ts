import { CompiledQuery, sql } from 'kysely';
import { isSqlite } from './dialect.ts';
import type { Database, Db } from './schema.ts';

/** How a column's values are cast in a VALUES list (types both databases know). */
export type ColumnType = 'integer' | 'bigint' | 'text';

type Value = string | number | null;

/** One row to write: its id and the columns to set (an undefined column is left as it is). */
export interface RowUpdate {
  id: number;
  set: Record<string, Value | undefined>;
}

/** Parameters per statement: below SQLite's 32,766 and PostgreSQL's 65,535. */
export const MAX_PARAMETERS = 30_000;

/**
 * Writes many rows of `table` at once: each row's `set` to the row with its id. What to write
 * is the caller's rule; this only writes it, grouped by shape (the set of columns written).
 * PostgreSQL: one `update ... from (values ...)` statement per shape and chunk of rows, so a
 * batch costs one round trip, not one per row. SQLite (in process, no round trips): one
 * prepared statement per shape, run for each row inside the caller's transaction (the
 * handle keeps statements by their text, db/connect.ts), which is faster there than a join
 * against a VALUES list.
 */
export async function updateMany<T extends keyof Database>(
  trx: Db,
  table: T,
  types: Partial<Record<keyof Database[T] & string, ColumnType>>,
  rows: RowUpdate[],
): Promise<void> {
  for (const query of updateManyQueries(trx, table, types, rows)) await trx.executeQuery(query);
}

/**
 * updateMany's statements, compiled and not run: for a caller that runs them with its other
 * writes (db/write-together.ts).
 */
export function updateManyQueries<T extends keyof Database>(
  trx: Db,
  table: T,
  types: Partial<Record<keyof Database[T] & string, ColumnType>>,
  rows: RowUpdate[],
): CompiledQuery[] {
  const shapes = new Map<string, { columns: string[]; rows: RowUpdate[] }>();
  for (const row of rows) {
    const columns = Object.keys(row.set)
      .filter((c) => row.set[c] !== undefined)
      .sort();
    if (columns.length === 0) continue;
    const key = columns.join();
    const shape = shapes.get(key) ?? { columns, rows: [] };
    shape.rows.push(row);
    shapes.set(key, shape);
  }
  const typeOf = (column: string): ColumnType => {
    const type = (types as Record<string, ColumnType | undefined>)[column];
    if (type === undefined) throw new Error(`updateMany: no type given for ${table}.${column}`);
    return type;
  };
  const queries: CompiledQuery[] = [];
  for (const { columns, rows: shaped } of shapes.values()) {
    if (isSqlite(trx)) {
      const sets = columns.map((c) => sql`${sql.ref(c)} = ${null}`);
      const { sql: text } =
        sql`update ${sql.table(table)} set ${sql.join(sets)} where ${sql.ref('id')} = ${0}`.compile(trx);
      for (const row of shaped) {
        queries.push(CompiledQuery.raw(text, [...columns.map((c) => row.set[c] ?? null), row.id]));
      }
      continue;
    }
    const casts = columns.map((c) => sql.raw(typeOf(c)));
    const perStatement = Math.floor(MAX_PARAMETERS / (columns.length + 1));
    for (let k = 0; k < shaped.length; k += perStatement) {
      const values = shaped
        .slice(k, k + perStatement)
        .map(
          (row) =>
            sql`(cast(${row.id} as integer), ${sql.join(
              columns.map((c, i) => sql`cast(${row.set[c] ?? null} as ${casts[i]})`),
            )})`,
        );
      const sets = columns.map((c, i) => sql`${sql.ref(c)} = ${sql.ref(`v.column${i + 2}`)}`);
      queries.push(
        sql`update ${sql.table(table)} set ${sql.join(sets)}
        from (values ${sql.join(values)}) as v where ${sql.ref(`${table}.id`)} = v.column1`.compile(trx),
      );
    }
  }
  return queries;
}
