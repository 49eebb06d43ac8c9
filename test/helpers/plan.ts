import { type CompiledQuery, sql } from 'kysely';
import type { DbContext } from '../../src/db/context.ts';

/** A parameter written into the statement's text, as PostgreSQL's EXPLAIN needs it. */
function literal(value: unknown): string {
  if (Array.isArray(value)) return `'{${value.join(',')}}'`;
  if (typeof value === 'number') return String(value);
  return `'${String(value).replaceAll("'", "''")}'`;
}

/**
 * The plan the database makes for a query, one line per step. On PostgreSQL the tables of a
 * test are small, so the planner is told to take an index wherever one serves, and the plan is
 * the generic one of a prepared statement.
 */
export async function queryPlan(database: DbContext, query: CompiledQuery): Promise<string> {
  const { sql: text, parameters } = query;
  if (database.sqlite) {
    return database.sqlite
      .prepare(`explain query plan ${text}`)
      .all(...parameters)
      .map((r) => (r as { detail: string }).detail)
      .join('\n');
  }
  return database.db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    // The plan the service's prepared statements keep after a few runs (db/prepared.ts): made
    // without the parameters' values.
    await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
    await sql`prepare planned as ${sql.raw(text)}`.execute(trx);
    try {
      const values = parameters.length === 0 ? '' : `(${parameters.map(literal).join(', ')})`;
      const rows = await sql<{ 'QUERY PLAN': string }>`explain execute planned${sql.raw(values)}`.execute(
        trx,
      );
      return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
    } finally {
      await sql`deallocate planned`.execute(trx);
    }
  });
}
