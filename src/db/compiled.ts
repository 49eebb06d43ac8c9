import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import { isSqlite } from './dialect.ts';
import type { Db } from './schema.ts';

/**
 * A query built and compiled once per dialect, then run with each call's own parameters:
 * the hot paths (a comment's POST, a session's lookup, the notifications list) build no
 * query objects per request, which was most of their garbage. `build` gets placeholder
 * values; the parameters of a call must come in the order the compiled SQL names them (the
 * order `build` used).
 */
export function compiledOnce<R>(
  build: (db: Db) => Compilable<R>,
): (db: Db, parameters: readonly unknown[]) => Promise<QueryResult<R>> {
  const byDialect = new Map<boolean, CompiledQuery<R>>();
  return (db, parameters) => {
    const sqlite = isSqlite(db);
    let compiled = byDialect.get(sqlite);
    if (!compiled) {
      compiled = build(db).compile();
      byDialect.set(sqlite, compiled);
    }
    return db.executeQuery({ ...compiled, parameters });
  };
}
