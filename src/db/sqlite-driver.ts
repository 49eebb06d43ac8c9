import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * better-sqlite3 for the Node.js that runs us. 13.x (built on Node-API, prebuilt in its
 * package) is the driver. 12.x stays, under the name `better-sqlite3-node20`, only for
 * Node.js 20: 13.x's binary crashes there, while 12.x (built on `node::ObjectWrap`) aborts
 * the process on Node.js 24.19 and later when the GC finalizes a statement
 * (`Assertion failed: (env) != nullptr`, nodejs/node#65446). Both have the same API.
 * Drop the alias when Node.js 20 is no longer supported.
 */
const nodeMajor = Number(process.versions.node.split('.')[0]);
export const SQLITE_DRIVER = nodeMajor >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20';

let driver: typeof BetterSqlite3 | undefined;

/** The driver, loaded at the first SQLite file opened: a service on PostgreSQL never loads it. */
export const sqliteDriver = (): typeof BetterSqlite3 => (driver ??= loadDriver(SQLITE_DRIVER));

/**
 * A driver missing for this Node.js (`npm ci` ran under another major version, whose driver it
 * installed) is said as such, with what to do, instead of Node's stack.
 */
export function loadDriver(name: string): typeof BetterSqlite3 {
  try {
    // better-sqlite3 is CommonJS; require keeps the choice synchronous.
    return createRequire(import.meta.url)(name) as typeof BetterSqlite3;
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw err;
    throw new Error(
      `the SQLite driver (${name}) is not installed for Node.js ${process.versions.node}: ` +
        'run `npm ci` again with this Node.js',
      { cause: err },
    );
  }
}

export type SqliteDatabase = BetterSqlite3.Database;
export type SqliteStatement = BetterSqlite3.Statement;
