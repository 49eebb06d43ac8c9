import { createRequire } from 'node:module';
import type pg from 'pg';

/** The PostgreSQL driver, loaded only by a service that uses PostgreSQL (a faster SQLite start). */
export function pgDriver(): typeof pg {
  return createRequire(import.meta.url)('pg') as typeof pg;
}
