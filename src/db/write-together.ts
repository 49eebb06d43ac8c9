import { CompiledQuery } from 'kysely';
import { isSqlite } from './dialect.ts';
import type { Db } from './schema.ts';

/** Parameters of one PostgreSQL statement at most (its protocol's limit). */
const PG_MAX_PARAMETERS = 65_535;

/**
 * Runs writes that need nothing from one another (no write reads what another writes, no two
 * write the same row) inside the caller's transaction. PostgreSQL: ONE statement, each write
 * a data-modifying CTE of it (`with w0 as (update ...), w1 as (insert ...) select 1`), so a
 * sync batch's writes cost one round trip instead of one each; they all run, against one
 * snapshot. SQLite (in process, no round trips): one after another, as given.
 */
export async function writeTogether(trx: Db, writes: CompiledQuery[]): Promise<void> {
  if (isSqlite(trx)) {
    for (const write of writes) await trx.executeQuery(write);
    return;
  }
  let group: CompiledQuery[] = [];
  let parameters = 0;
  const flush = async () => {
    const [only] = group;
    if (group.length === 1 && only) await trx.executeQuery(only);
    else if (group.length > 1) await trx.executeQuery(combined(group));
    group = [];
    parameters = 0;
  };
  for (const write of writes) {
    // A literal in the text could hold a `$n` that renumbering would change: such a write runs alone.
    if (write.sql.includes("'")) {
      await trx.executeQuery(write);
      continue;
    }
    if (parameters + write.parameters.length > PG_MAX_PARAMETERS) await flush();
    group.push(write);
    parameters += write.parameters.length;
  }
  await flush();
}

/** The writes as the CTEs of one statement, their parameters renumbered in order. */
function combined(writes: CompiledQuery[]): CompiledQuery {
  const parameters: unknown[] = [];
  const parts = writes.map((write, i) => {
    const offset = parameters.length;
    parameters.push(...write.parameters);
    return `w${i} as (${write.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`)})`;
  });
  return CompiledQuery.raw(`with ${parts.join(', ')} select 1`, parameters);
}
