import { type Expression, type RawBuilder, sql } from 'kysely';
import type { ErrorCode } from '../errors.ts';
import { isSqlite } from './dialect.ts';
import type { Db } from './schema.ts';

/**
 * A rule that asks the database, written once as an SQL condition over named values: it
 * refuses with `error` when `refuses` holds. It is asked over a table of the values of one
 * write or of a group of writes (comment posts in a group commit), in one query.
 */
export interface SqlRule<V extends string, C extends string = ErrorCode> {
  /** The error it refuses with (or, for a condition that decides something else, its name). */
  error: C;
  refuses: (v: Record<V, Expression<unknown>>) => RawBuilder<unknown>;
}

/** The SQL type of a value the rules read (`refusedByRows`). */
export type ValueType = 'integer' | 'text';

/** A row of values to ask the rules about, and which of the rules it asks. */
export interface AskedRow<V extends string, C extends string> {
  values: Record<V, unknown>;
  asks: (rule: SqlRule<V, C>) => boolean;
}

/** Columns that ride along with the rows of values (a write's own values, comments/queries.ts). */
export type Extra = Record<string, { type: ValueType; values: readonly unknown[] }>;

/**
 * The rows as a table of parameters, `v(n, a<i>…, values…, extra…)`, and each rule some row asks
 * as a column `r<i>` over it (1 where the row asks the rule and it refuses): the parts of a query
 * that asks the rules of a group of writes at once (`refusedByRows`, or a statement that also
 * stores what they let through). SQLite: a `values` list, a parameter per value. PostgreSQL
 * (`arrays`): one array parameter per column, `unnest`ed, so the statement's text and its
 * making do not grow with the group (a group of 25 posts was some 800 parameters).
 */
export function askedTable<V extends string, C extends string>(
  rules: readonly SqlRule<V, C>[],
  types: Record<V, ValueType>,
  rows: readonly AskedRow<V, C>[],
  extra: Extra = {},
  arrays = false,
) {
  // Only the rules some row asks: a group of signed-in posts asks one.
  const asking = rules.filter((rule) => rows.some((row) => row.asks(rule)));
  const names = Object.keys(types) as V[];
  const extras = Object.keys(extra);
  const asked = asking.map((_, i) => `a${i}`);
  const columns = sql.join([...['n', ...asked, ...names, ...extras].map((c) => sql.id(c))]);
  // Each column's values, in the rows' order, and its type.
  const lists: [values: (n: number) => unknown, type: ValueType][] = [
    [(n) => n, 'integer'],
    ...asking.map((rule): [(n: number) => unknown, ValueType] => [
      (n) => (rows[n]?.asks(rule) ? 1 : 0),
      'integer',
    ]),
    ...names.map((name): [(n: number) => unknown, ValueType] => [
      (n) => rows[n]?.values[name] ?? null,
      types[name],
    ]),
    ...extras.map((name): [(n: number) => unknown, ValueType] => [
      (n) => extra[name]?.values[n] ?? null,
      extra[name]?.type ?? 'text',
    ]),
  ];
  const table = arrays
    ? sql`select * from unnest(${sql.join(
        lists.map(([of, type]) => sql`cast(${rows.map((_, n) => of(n))} as ${sql.raw(type)}[])`),
      )})`
    : // The first row names the columns' types; the others' parameters take them.
      sql`values ${sql.join(
        rows.map(
          (_, n) =>
            sql`(${sql.join(lists.map(([of, type]) => (n === 0 ? sql`cast(${of(n)} as ${sql.raw(type)})` : sql`${of(n)}`)))})`,
        ),
      )}`;
  const value = Object.fromEntries(names.map((name) => [name, sql.ref(`v.${name}`)])) as unknown as Record<
    V,
    Expression<unknown>
  >;
  const refused = asking.map(
    (rule, i) =>
      sql`(case when ${sql.ref(`v.${asked[i]}`)} = 1 and ${rule.refuses(value)} then 1 else 0 end) as ${sql.id(`r${i}`)}`,
  );
  return { asking, values: sql`v(${columns}) as (${table})`, refused };
}

/**
 * Whether a row before this one in the group's table (`askedTable`'s `v`) holds `same`: for a
 * rule that two writes of one group could break together, each asked before either is stored
 * (comments/rules.ts `REPEATED`). `v` is the rule's own values; `same` reads the earlier row's
 * as `e`.
 */
export function earlierRow<V extends string>(
  v: Record<V, Expression<unknown>>,
  same: (e: Record<V, Expression<unknown>>) => RawBuilder<unknown>,
): RawBuilder<unknown> {
  const e = Object.fromEntries(
    Object.keys(v).map((name) => [name, sql.ref(`e.${name}`)]),
  ) as unknown as Record<V, Expression<unknown>>;
  return sql`exists (select 1 from v as e where ${sql.ref('e.n')} < ${sql.ref('v.n')} and ${same(e)})`;
}

/** Each row's errors, from the `r<i>` columns of a query built on `askedTable`. */
export const errorsOf = <C extends string>(
  asking: readonly SqlRule<string, C>[],
  row: Record<string, unknown>,
) => new Set(asking.filter((_, i) => Number(row[`r${i}`]) === 1).map((rule) => rule.error));

/**
 * The errors of the rules that refuse each row of values, for every row in one query (a group
 * of writes asks once; a single write is a group of one): the rows are a table of parameters,
 * `v`, and each rule a column over it, asked only where the row asks it.
 */
export async function refusedByRows<V extends string, C extends string>(
  db: Db,
  rules: readonly SqlRule<V, C>[],
  types: Record<V, ValueType>,
  rows: readonly AskedRow<V, C>[],
): Promise<Set<C>[]> {
  const sqlite = isSqlite(db);
  const { asking, values, refused } = askedTable(rules, types, sqlite ? padded(rows) : rows, {}, !sqlite);
  if (asking.length === 0) return rows.map(() => new Set());
  const { rows: found } = await sql<Record<string, number | string>>`with ${values}
    select ${sql.ref('v.n')}, ${sql.join(refused)} from v order by ${sql.ref('v.n')}`.execute(db);
  return rows.map((_, n) => errorsOf(asking, found[n] ?? {}));
}

/**
 * The rows and, after them, rows that ask nothing up to the next power of two: SQLite keeps a
 * prepared statement for each text (db/connect.ts), and a group's table is one text per size.
 * With a group of each size up to 200 kept, the service's memory grew by 20 MiB under 200
 * connections posting; padded, a group is one of eight sizes.
 */
export function padded<V extends string, C extends string>(
  rows: readonly AskedRow<V, C>[],
): readonly AskedRow<V, C>[] {
  const size = 2 ** Math.ceil(Math.log2(Math.max(rows.length, 1)));
  if (size === rows.length) return rows;
  const none: AskedRow<V, C> = { values: {} as Record<V, unknown>, asks: () => false };
  return [...rows, ...Array.from({ length: size - rows.length }, () => none)];
}

/** The errors of the rules that refuse these values, asked in one query. */
export async function refusedBy<V extends string>(
  db: Db,
  rules: readonly SqlRule<V>[],
  types: Record<V, ValueType>,
  values: Record<V, unknown>,
): Promise<Set<ErrorCode>> {
  const [refused] = await refusedByRows(db, rules, types, [{ values, asks: () => true }]);
  return refused ?? new Set();
}
