import { CompiledQuery, sql } from 'kysely';
import { isSqlite } from './dialect.ts';
import type { Database, Db } from './schema.ts';
import { type Write, writeTogether } from './write-together.ts';

/** How a column's values are cast in a VALUES list (types both databases know). */
export type ColumnType = 'integer' | 'bigint' | 'text';

type Value = string | number | null;

/** One row to write: its id and the columns to set (an undefined column is left as it is). */
export interface RowUpdate {
  id: number;
  set: Record<string, Value | undefined>;
}

/**
 * Writes many rows of `table` at once: each row's `set` to the row with its id. What to write
 * is the caller's rule; this only writes it, grouped by shape (the set of columns written).
 * PostgreSQL: one `update ... from unnest(arrays)` statement per shape, so a batch costs one
 * round trip, not one per row. SQLite (in process, no round trips): one
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
  // Each row has one shape: the statements write disjoint rows.
  await writeTogether(trx, updateManyQueries(trx, table, types, rows));
}

/**
 * updateMany's statements, not run: for a caller that runs them with its other writes
 * (db/write-together.ts).
 */
export function updateManyQueries<T extends keyof Database>(
  trx: Db,
  table: T,
  types: Partial<Record<keyof Database[T] & string, ColumnType>>,
  rows: RowUpdate[],
): Write[] {
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
  const queries: Write[] = [];
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
    // One array per column, unnested into rows: a handful of parameters whatever the batch's
    // size, so PostgreSQL parses and plans a small statement (a VALUES list of 100 rows of 11
    // casts cost it more than the update itself).
    const arrays = [
      sql`cast(${shaped.map((row) => row.id)} as integer[])`,
      ...columns.map(
        (c) => sql`cast(${shaped.map((row) => row.set[c] ?? null)} as ${sql.raw(`${typeOf(c)}[]`)})`,
      ),
    ];
    const names = sql.raw(['id', ...columns.map((_, i) => `c${i}`)].join(', '));
    const sets = columns.map((c, i) => sql`${sql.ref(c)} = ${sql.ref(`v.c${i}`)}`);
    queries.push(
      sql`update ${sql.table(table)} set ${sql.join(sets)}
        from unnest(${sql.join(arrays)}) as v(${names}) where ${sql.ref(`${table}.id`)} = v.id`,
    );
  }
  return queries;
}

/** SQLite's parameters per statement: below its 32,766. */
const SQLITE_MAX_PARAMETERS = 30_000;

/**
 * Inserts many rows of `table` (not run), the columns of `types` in its order. With
 * `upsertOn`, a row whose `upsertOn` column conflicts sets the others instead. PostgreSQL: one
 * `insert ... select * from unnest(arrays)`, a parameter per column whatever the rows (small to
 * parse and plan); SQLite: `insert ... values (...), (...)`, chunked under its parameter limit.
 */
export function insertManyQueries<T extends keyof Database>(
  trx: Db,
  table: T,
  types: Partial<Record<keyof Database[T] & string, ColumnType>>,
  rows: Record<string, Value>[],
  upsertOn?: keyof Database[T] & string,
): Write[] {
  if (rows.length === 0) return [];
  const columns = Object.keys(types);
  const typed = types as Record<string, ColumnType>;
  const into = sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))})`;
  const conflict =
    upsertOn === undefined
      ? sql``
      : sql` on conflict (${sql.ref(upsertOn)}) do update set ${sql.join(
          columns.filter((c) => c !== upsertOn).map((c) => sql`${sql.ref(c)} = ${sql.ref(`excluded.${c}`)}`),
        )}`;
  if (!isSqlite(trx)) {
    const arrays = columns.map(
      (c) => sql`cast(${rows.map((row) => row[c] ?? null)} as ${sql.raw(`${typed[c]}[]`)})`,
    );
    return [sql`${into} select * from unnest(${sql.join(arrays)})${conflict}`];
  }
  const perStatement = Math.floor(SQLITE_MAX_PARAMETERS / columns.length);
  // The text made once, the rows only as parameters (no query objects per value).
  const head = into.compile(trx).sql;
  const tail = conflict.compile(trx).sql;
  const row = `(${columns.map(() => '?').join(', ')})`;
  const queries: Write[] = [];
  for (let k = 0; k < rows.length; k += perStatement) {
    const chunk = rows.slice(k, k + perStatement);
    queries.push(
      CompiledQuery.raw(
        `${head} values ${chunk.map(() => row).join(', ')}${tail}`,
        chunk.flatMap((r) => columns.map((c) => r[c] ?? null)),
      ),
    );
  }
  return queries;
}
