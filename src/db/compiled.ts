import { createHash } from 'node:crypto';
import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type pg from 'pg';
import { isSqlite } from './dialect.ts';
import type { Db } from './schema.ts';

/**
 * The SQL texts of the queries compiled once for PostgreSQL, with their statement names: the
 * pool's clients run these as named prepared statements (`preparingClient`), parsed and planned
 * once per connection instead of on every call. A name is a digest of the text, so one name
 * never stands for two texts.
 */
const prepared = new Map<string, string>();

const statementName = (text: string): string =>
  `q_${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;

/**
 * A query built and compiled once per dialect, then run with each call's own parameters:
 * the hot paths (a comment's POST, a session's lookup, the notifications list) build no
 * query objects per request, which was most of their garbage, and on PostgreSQL each is a
 * prepared statement of its connection. `build` gets placeholder values; the parameters of a
 * call must come in the order the compiled SQL names them (the order `build` used).
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
      if (!sqlite) prepared.set(compiled.sql, statementName(compiled.sql));
    }
    return db.executeQuery({ ...compiled, parameters });
  };
}

/**
 * The pool's client class (db/connect.ts): a query whose text `compiledOnce` compiled goes out
 * as a named prepared statement (pg parses it once per connection and then only binds and
 * executes); every other query as it was sent. Kysely's queries, transactions included, pass
 * through it unchanged otherwise.
 */
export function preparingClient(driver: typeof pg): typeof pg.Client {
  class PreparingClient extends driver.Client {
    // pg's overloads: (text, values?, callback?) or (config, ...); only the first is renamed.
    override query(...args: unknown[]): never {
      const [text, values, ...rest] = args;
      const name = typeof text === 'string' ? prepared.get(text) : undefined;
      const sent = name === undefined ? args : [{ name, text, values: values ?? [] }, ...rest];
      return (super.query as (...a: unknown[]) => never).apply(this, sent);
    }
  }
  return PreparingClient;
}
