import { type CompiledQuery, type RawBuilder, sql } from 'kysely';
import { isSqlite } from './dialect.ts';
import type { Db } from './schema.ts';

/** Parameters of one PostgreSQL statement at most (its protocol's limit). */
const PG_MAX_PARAMETERS = 65_535;

/**
 * One write for writeTogether: a statement compiled beforehand (SQLite's per-row statements,
 * their text made once: db/update-many.ts), or a Kysely expression not yet compiled, which
 * PostgreSQL's combined statement takes in whole and Kysely numbers its parameters.
 */
export type Write = CompiledQuery | RawBuilder<unknown>;

/**
 * Runs writes that need nothing from one another (no write reads what another writes, no two
 * write the same row) inside the caller's transaction. PostgreSQL: ONE statement, each write
 * a data-modifying CTE of it (`with w0 as (update ...), w1 as (insert ...) select 1`), built
 * by Kysely's `sql` template from the writes themselves, so a sync batch's writes cost one
 * round trip instead of one each; they all run, against one snapshot. SQLite (in process, no
 * round trips), or a write compiled beforehand: one after another.
 */
export async function writeTogether(trx: Db, writes: Write[]): Promise<void> {
  const expressions: RawBuilder<unknown>[] = [];
  for (const write of writes) {
    if ('isRawBuilder' in write) expressions.push(write);
    else await trx.executeQuery(write);
  }
  if (expressions.length > 1 && !isSqlite(trx)) {
    const ctes = expressions.map((write, i) => sql`${sql.id(`w${i}`)} as (${write})`);
    const combined = sql`with ${sql.join(ctes)} select 1`.compile(trx);
    if (combined.parameters.length <= PG_MAX_PARAMETERS) {
      await trx.executeQuery(combined);
      return;
    }
  }
  for (const write of expressions) await write.execute(trx);
}
