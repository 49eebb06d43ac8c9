import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';

/**
 * shared/time-out.ts `timeOutRuns` as an SQL condition, for the rules the database asks (a
 * timed-out user's signed-out browser, guests/rules.ts `SESSION_TIMED_OUT`): one rule in two
 * forms. A time-out until `until` (the `timeout_until` column, null for none) runs at `at` while
 * `until` is later; at `until` it has ended. Both are timestamps as `Date#toISOString` writes
 * them (UTC, milliseconds, one width), so their order as text, which SQLite and PostgreSQL
 * compare alike, is their order in time; a null `until` never holds. test/ban-evasion.test.ts
 * holds the two forms equal a millisecond before, at and after `until`, and for none, on both
 * databases.
 */
export const timeOutRunsSql = (until: Expression<unknown>, at: Expression<unknown>): RawBuilder<SqlBool> =>
  sql<SqlBool>`(${until} > ${at})`;
