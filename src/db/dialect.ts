import { type ColumnDefinitionBuilder, type Kysely, sql, SqliteAdapter } from 'kysely';

/**
 * The few places where SQLite and PostgreSQL differ, each in one small function, so that
 * queries elsewhere stay the same for both.
 */

type AnyDb = { getExecutor(): { adapter: unknown } };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- schema changes and locks work on any table
type AnyKysely = Kysely<any>;

export function isSqlite(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/** The one schema difference: how an auto-incrementing integer key is declared. */
export function idColumn(db: AnyDb) {
  return isSqlite(db)
    ? (['integer', (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement()] as const)
    : (['serial', (c: ColumnDefinitionBuilder) => c.primaryKey()] as const);
}

/**
 * `column in (ids)` for a batch's ids: on PostgreSQL `= any(array)`, one parameter (a small
 * statement to parse and plan, whatever the batch's size), on SQLite an `in` list.
 */
export function inIds(db: AnyDb, column: string, ids: readonly number[]) {
  return isSqlite(db)
    ? sql<boolean>`${sql.ref(column)} in (${sql.join(ids)})`
    : sql<boolean>`${sql.ref(column)} = any(cast(${ids} as integer[]))`;
}

/**
 * `column = value` checked on the rows the statement's other conditions found, never read
 * through an index of its own: the column is compared as an expression (`column || ''`), which
 * no index holds, on both databases. A claim of a few outbox rows by their ids went through
 * the due index's `state = 'pending'` instead (SQLite plans without statistics, PostgreSQL's
 * generic plans did the same on a small table) and read every pending row.
 */
export const checkedOnly = (column: string, value: string) =>
  sql<boolean>`(${sql.ref(column)} || '') = ${value}`;

interface DriverError {
  code?: unknown;
  message?: unknown;
  detail?: unknown;
}

/**
 * When `err` is a unique violation, the columns of the violated key (`['name']`,
 * `['group_id']`), else null. Identified by the drivers' error codes: PostgreSQL's 23505
 * with its `Key (cols)=...` detail, SQLite's SQLITE_CONSTRAINT_UNIQUE/PRIMARYKEY with its
 * `UNIQUE constraint failed: table.col` message. A partial or expression index on SQLite
 * names the index instead: then the answer is `['index:<name>']`.
 */
export function uniqueViolation(err: unknown): string[] | null {
  const { code, message, detail } = (err ?? {}) as DriverError;
  if (code === '23505') {
    const cols = typeof detail === 'string' ? /^Key \((.+?)\)=/.exec(detail)?.[1] : undefined;
    return cols ? cols.split(',').map((c) => c.trim().replace(/^"|"$/g, '')) : [];
  }
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const what = typeof message === 'string' ? /constraint failed: (.+)$/.exec(message)?.[1] : undefined;
    if (!what) return [];
    const index = /^index '(.+)'$/.exec(what)?.[1];
    if (index) return [`index:${index}`];
    return what.split(',').map((c) => c.trim().split('.').pop() ?? c);
  }
  return null;
}

/**
 * When `err` is a foreign key violation on PostgreSQL (23503: a write named a row that a
 * concurrent write deleted after the write's checks), the referencing column and the table it
 * names (`{column: 'reply_to', table: 'comments'}`, from the `Key (col)=... is not present in
 * table "t"` detail), else null. SQLite writes one at a time: its checks already saw the delete.
 */
export function foreignKeyViolation(err: unknown): { column: string; table: string } | null {
  const { code, detail } = (err ?? {}) as DriverError;
  if (code !== '23503' || typeof detail !== 'string') return null;
  const found = /^Key \("?(\w+)"?\)=.* is not present in table "(\w+)"/.exec(detail);
  const [, column, table] = found ?? [];
  return column && table ? { column, table } : null;
}

/**
 * PostgreSQL's refusals that pass: shut down or restarting (57P0x), too many connections, the
 * connection lost (08xxx), and what an operator's day brings: the database dropped or renamed
 * (3D000, 57P04), a password changed (28000, 28P01), a failover's standby that takes no writes
 * (25006). Also "not currently accepting connections" (55000, matched by its message: the
 * code has other uses).
 */
const PG_UNAVAILABLE = new Set([
  '57P01',
  '57P02',
  '57P03',
  '57P04',
  '53300',
  '08000',
  '08001',
  '08003',
  '08006',
  '3D000',
  '28000',
  '28P01',
  '25006',
]);
const NET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Of those, the refusals that at a start are its configuration's (an unknown database, a wrong
 * password or user): the start stops with exit 1 (docs/decisions.md "Database outage at start"),
 * where a running service answers 503 and waits for the operator.
 */
const PG_MISCONFIGURED = new Set(['3D000', '28000', '28P01']);
export const isMisconfigured = (err: unknown): boolean =>
  PG_MISCONFIGURED.has(String((err as DriverError | null)?.code));

/** The database is busy or unreachable: the client gets 503 and may retry. */
export function isUnavailable(err: unknown): boolean {
  const { code, message } = (err ?? {}) as DriverError;
  if (typeof code === 'string') {
    if (PG_UNAVAILABLE.has(code) || NET_ERRORS.has(code)) return true;
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return true;
  }
  return (
    typeof message === 'string' &&
    /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed|the database system is (starting up|shutting down)|is not currently accepting connections/i.test(
      message,
    )
  );
}

/**
 * A transaction that lost a race with another (PostgreSQL's deadlock, 40P01, or serialization
 * failure, 40001): it changed nothing, and the same request sent again works. SQLite takes its
 * writes one at a time and has neither (its SQLITE_BUSY is `isUnavailable`).
 */
export function isConflict(err: unknown): boolean {
  const { code } = (err ?? {}) as DriverError;
  return code === '40P01' || code === '40001';
}

/** A write refused because the disk (or the database's size limit) is full: SQLite's SQLITE_FULL, PostgreSQL's 53100. */
export function isDiskFull(err: unknown): boolean {
  const { code } = (err ?? {}) as DriverError;
  return code === 'SQLITE_FULL' || code === '53100';
}

/**
 * Locks a row until the end of the transaction, so that concurrent writers of the same
 * group (say) take turns. SQLite needs nothing: its write transactions begin IMMEDIATE and
 * are already one at a time. `key share` only keeps the row from being deleted meanwhile (its
 * writers still run side by side): what a write takes of a streamer before its comments.
 */
export async function lockRow(
  trx: AnyKysely,
  table: string,
  id: number,
  mode: RowLock = 'update',
): Promise<void> {
  if (isSqlite(trx)) return;
  await sql`select 1 from ${sql.table(table)} where id = ${id} for ${sql.raw(mode)}`.execute(trx);
}

/** PostgreSQL's row locks a write takes: `update` makes writers take turns, `key share` keeps the row. */
export type RowLock = 'update' | 'key share';

/**
 * Adds CHECK constraints to an existing table. PostgreSQL alters the table; SQLite cannot,
 * so the table is rebuilt with the constraints added to its own CREATE statement (SQLite's
 * documented procedure; the migrator runs it with foreign keys off inside one transaction),
 * keeping its rows, indexes and AUTOINCREMENT counter.
 */
export async function addChecks(db: AnyKysely, table: string, checks: Record<string, string>): Promise<void> {
  if (!isSqlite(db)) {
    for (const [name, expr] of Object.entries(checks)) {
      await sql`alter table ${sql.table(table)} add constraint ${sql.ref(name)} check (${sql.raw(expr)})`.execute(
        db,
      );
    }
    return;
  }
  const constraints = Object.entries(checks)
    .map(([name, expr]) => `, constraint "${name}" check (${expr})`)
    .join('');
  await rebuildSqliteTable(db, table, (create) => create.replace(/\)\s*$/, `${constraints})`));
}

/**
 * Replaces named CHECK constraints of an existing table with new expressions (a kind added to a
 * list of kinds). PostgreSQL drops and adds each; SQLite rebuilds the table as addChecks does,
 * each `constraint "<name>" check (...)` of its CREATE statement written anew.
 */
export async function replaceChecks(
  db: AnyKysely,
  table: string,
  checks: Record<string, string>,
): Promise<void> {
  if (!isSqlite(db)) {
    for (const [name, expr] of Object.entries(checks)) {
      await sql`alter table ${sql.table(table)} drop constraint ${sql.ref(name)}, add constraint ${sql.ref(name)} check (${sql.raw(expr)})`.execute(
        db,
      );
    }
    return;
  }
  await rebuildSqliteTable(db, table, (create) =>
    Object.entries(checks).reduce((text, [name, expr]) => {
      const head = `constraint "${name}" check (`;
      const start = text.indexOf(head);
      if (start < 0) throw new Error(`no constraint ${name} on ${table}`);
      // The check's own parentheses end where their depth returns to zero.
      let depth = 0;
      let end = start + head.length - 1;
      for (; end < text.length; end++) {
        if (text[end] === '(') depth++;
        else if (text[end] === ')' && --depth === 0) break;
      }
      return `${text.slice(0, start)}constraint "${name}" check (${expr})${text.slice(end + 1)}`;
    }, create),
  );
}

/**
 * SQLite's table rebuild: a new table from the CREATE statement as `change` writes it, the rows
 * copied, the old table dropped and the new one renamed, its indexes and AUTOINCREMENT counter
 * made again.
 */
async function rebuildSqliteTable(
  db: AnyKysely,
  table: string,
  change: (create: string) => string,
): Promise<void> {
  const schema = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_schema where tbl_name = ${table}`.execute(db);
  const create = schema.rows.find((r) => r.type === 'table')?.sql;
  if (!create) throw new Error(`no table ${table}`);
  const indexes = schema.rows.flatMap((r) => (r.type === 'index' && r.sql !== null ? [r.sql] : []));
  const seq = await sql<{ seq: number }>`select seq from sqlite_sequence where name = ${table}`
    .execute(db)
    .catch(() => ({ rows: [] }));

  const temp = `${table}__rebuild`;
  const rebuilt = change(create.replace(/^create table\s+("?)([\w]+)\1/i, `create table "${temp}"`));
  await sql.raw(rebuilt).execute(db);
  await sql.raw(`insert into "${temp}" select * from "${table}"`).execute(db);
  await sql.raw(`drop table "${table}"`).execute(db);
  await sql.raw(`alter table "${temp}" rename to "${table}"`).execute(db);
  for (const index of indexes) await sql.raw(index).execute(db);
  const last = seq.rows[0]?.seq;
  if (last !== undefined) {
    await sql`update sqlite_sequence set seq = max(seq, ${last}) where name = ${table}`.execute(db);
  }
}

/** The columns a table has in this database. */
export async function tableColumns(db: AnyKysely, table: string): Promise<Set<string>> {
  const { rows } = isSqlite(db)
    ? await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db)
    : await sql<{ name: string }>`select column_name as name from information_schema.columns
        where table_schema = current_schema() and table_name = ${table}`.execute(db);
  return new Set(rows.map((r) => r.name));
}

/**
 * The columns of a table that PostgreSQL's driver reads as text (bigint, which may pass a
 * JavaScript number's exact range); none on SQLite, whose driver reads numbers.
 */
export async function bigintColumns(db: AnyKysely, table: string): Promise<string[]> {
  if (isSqlite(db)) return [];
  const { rows } = await sql<{ name: string }>`select column_name as name from information_schema.columns
      where table_schema = current_schema() and table_name = ${table} and data_type = 'bigint'`.execute(db);
  return rows.map((r) => r.name);
}

/**
 * After rows were inserted with their own ids: new rows get ids past them. SQLite's
 * AUTOINCREMENT does this by itself; a PostgreSQL serial's sequence has to be moved.
 */
export async function moveIdsPastRows(db: AnyKysely, table: string): Promise<void> {
  if (isSqlite(db)) return;
  await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)`.execute(
    db,
  );
}
