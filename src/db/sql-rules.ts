import { CompiledQuery, type Expression, type RawBuilder, sql } from 'kysely';
import type { ErrorCode } from '../errors.ts';
import { isSqlite } from './dialect.ts';
import type { Db } from './schema.ts';

/**
 * A rule that asks the database, written once as an SQL condition over named values: it
 * refuses with `error` when `refuses` holds. The same definition runs with the values as
 * parameters (`refusedBy`, one write at a time) and over a table's columns (a statement that
 * writes many rows at once, such as comments/batch.ts), so the two cannot disagree.
 */
export interface SqlRule<V extends string> {
  error: ErrorCode;
  refuses: (v: Record<V, Expression<unknown>>) => RawBuilder<unknown>;
}

/**
 * The query that asks these rules, compiled once per dialect and set of rules: each value is
 * a marker while it is built, and the markers' order is its parameters' order.
 */
const compiled = new Map<string, { sql: string; names: string[] }>();
function checkQuery<V extends string>(db: Db, rules: readonly SqlRule<V>[]) {
  const key = `${isSqlite(db)}:${rules.map((r) => r.error).join()}`;
  let query = compiled.get(key);
  if (!query) {
    const markers = new Proxy({} as Record<V, Expression<unknown>>, {
      get: (_, name) => sql.val(`\u0000${String(name)}`),
    });
    const columns = rules.map(
      (rule, i) => sql`(case when ${rule.refuses(markers)} then 1 else 0 end) as ${sql.ref(`r${i}`)}`,
    );
    const built = sql`select ${sql.join(columns)}`.compile(db);
    compiled.set(key, (query = { sql: built.sql, names: built.parameters.map((p) => String(p).slice(1)) }));
  }
  return query;
}

/** The errors of the rules that refuse these values, asked in one query. */
export async function refusedBy<V extends string>(
  db: Db,
  rules: readonly SqlRule<V>[],
  values: Record<V, unknown>,
): Promise<Set<ErrorCode>> {
  if (rules.length === 0) return new Set();
  const query = checkQuery(db, rules);
  const { rows } = await db.executeQuery<Record<string, number | string>>(
    CompiledQuery.raw(
      query.sql,
      query.names.map((n) => values[n as V]),
    ),
  );
  const row = rows[0] ?? {};
  return new Set(rules.filter((_, i) => Number(row[`r${i}`]) === 1).map((rule) => rule.error));
}
