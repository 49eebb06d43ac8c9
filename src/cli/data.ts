import { sql } from 'kysely';
import { moveIdsPastRows, tableColumns } from '../db/dialect.ts';
import type { DbContext } from '../db/context.ts';
import type { Database, Db } from '../db/schema.ts';
import { writeTransaction } from '../db/transaction.ts';
import { foldCase } from '../shared/rules.ts';
import { foldName, foldWords } from '../lib/names.ts';
import { repeatKey } from '../comments/rules.ts';
import { nameKey } from '../streamers/queries.ts';
import { deriveShown } from '../notifications/queries.ts';
import { legacyParams } from '../db/migrations/legacy-audit.ts';

/**
 * Export and import of all data as JSON, secrets and sessions excepted. Tables are listed in
 * an order where every row's foreign keys point to rows already inserted.
 */
export const EXPORTED_TABLES = [
  'users',
  'moderators',
  'streamers',
  'ratings',
  'rater_groups',
  'rater_group_members',
  'comments',
  'community_ratings',
  'settings',
  'audit_log',
  'reports',
  'address_blocks',
  'comment_likes',
  'votes',
  'rating_history',
  'notifications',
  'streamer_replies',
  'streams',
  'stream_samples',
  'stream_stats',
  // The fifth wave's "Following", and the words that hold a comment ("Words and repeats").
  'follows',
  'hold_words',
  'mail_settings', // fifth wave "E-mail": addresses and choices move with the data
  // The fifth wave's "Following" and "Schedules".
  'follows',
  'schedules',
  'schedule_segments',
  // Issue 29 / 30 item 1: where users signed in from, bans that outlive accounts.
  'user_addresses',
  'ban_tombstones',
  'ban_addresses',
  // The fifth wave's staff reviews.
  'staff_reviews',
  'rerating_requests',
  'review_publishes',
] as const satisfies readonly (keyof Database)[];

/**
 * Tables deliberately left out of the export (test/export-tables.test.ts fails on a table in
 * neither list, so a new table cannot be forgotten).
 */
export const NOT_EXPORTED: Readonly<
  Record<Exclude<keyof Database, (typeof EXPORTED_TABLES)[number]>, string>
> = {
  secrets: 'credentials (session secret, administrator password hash): set on the new server',
  sessions: 'sign-ins end with the move; people sign in again',
  oauth_states: 'sign-ins in progress, minutes long',
  rate_limits: 'counters of the last minutes',
  sync_state: 'live data, fetched again from the providers',
  sync_lease: 'which instance polls now',
  discord_webhooks: 'webhook addresses are credentials; set again in the settings',
  discord_outbox: 'messages waiting to be sent, made for the old server',
  challenge_uses: 'spent challenge solutions, which expire within 10 minutes anyway',
  idempotency_keys: 'answers kept a day for retries of the same request',
  event_log: 'what happened in the last day, for live streams and deliverers of the old server',
  log_cursors: 'how far the old server delivered its event log',
  push_subscriptions: 'devices subscribe again on the new server (their keys are made for its VAPID key)',
  push_outbox: 'messages waiting to be sent, made for the old server',
  mail_tokens: 'links in messages already sent (confirmations expire in a day)',
  mail_outbox: 'messages waiting to be sent, made for the old server',
  mail_digests: 'which weekly digests the old server sent',
};
type Table = (typeof EXPORTED_TABLES)[number];

/** Tables whose `id` comes from a sequence on PostgreSQL. */
const SERIAL_TABLES: Table[] = [
  'users',
  'streamers',
  'rater_groups',
  'rater_group_members',
  'comments',
  'community_ratings',
  'audit_log',
  'reports',
  'address_blocks',
  'rating_history',
  'notifications',
  'streams',
  'stream_samples',
  'ban_tombstones',
  'ban_addresses',
  'staff_reviews',
  'rerating_requests',
];

/** Tables that files exported by earlier versions do not have. */
const ADDED_LATER: ReadonlySet<Table> = new Set([
  'reports',
  'address_blocks',
  'comment_likes',
  'votes',
  'rating_history',
  'notifications',
  'streamer_replies',
  // Stream history (issue 28).
  'streams',
  'stream_samples',
  'stream_stats',
  'user_addresses',
  'ban_tombstones',
  'ban_addresses',
  'follows',
  'hold_words',
  'staff_reviews',
  'rerating_requests',
  'review_publishes',
  'mail_settings',
  'schedules',
  'schedule_segments',
]);

export const EXPORT_FORMAT = 'streamer-rating-export';

export interface ExportFile {
  format: typeof EXPORT_FORMAT;
  version: 1;
  exported_at: string;
  tables: Record<Table, Record<string, unknown>[]>;
}

/** The column each table's rows are exported in the order of (its primary key). */
const ORDER_BY: Record<Table, string> = {
  users: 'id',
  moderators: 'user_id',
  streamers: 'id',
  ratings: 'streamer_id',
  rater_groups: 'id',
  rater_group_members: 'id',
  comments: 'id',
  community_ratings: 'id',
  settings: 'key',
  audit_log: 'id',
  reports: 'id',
  address_blocks: 'id',
  comment_likes: 'comment_id',
  votes: 'streamer_id',
  rating_history: 'id',
  notifications: 'id',
  streamer_replies: 'streamer_id',
  streams: 'id',
  stream_samples: 'id',
  stream_stats: 'streamer_id',
  user_addresses: 'user_id',
  ban_tombstones: 'id',
  ban_addresses: 'id',
  follows: 'user_id',
  hold_words: 'position',
  staff_reviews: 'id',
  rerating_requests: 'id',
  review_publishes: 'streamer_id',
  mail_settings: 'user_id',
  schedules: 'streamer_id',
  schedule_segments: 'streamer_id',
};

/**
 * Columns the service derives from others (case-folded keys for lookups): made again on
 * import, so that a file from a version that had not got them, or folded differently, loads.
 */
const DERIVED: { [T in Table]?: Record<string, (row: Record<string, unknown>) => unknown> } = {
  users: {
    login_key: (row) => foldCase(String(row.login)),
    display_key: (row) => foldCase(String(row.display_name)),
    login_fold: (row) => foldName(String(row.login)),
    display_fold: (row) => foldName(String(row.display_name)),
  },
  streamers: { name_key: (row) => nameKey(String(row.name)) },
  comments: { repeat_key: (row) => repeatKey(String(row.body)) },
  hold_words: { fold: (row) => foldWords(String(row.word)) },
  // A file from before entries carried parameters: read back from the English summaries.
  audit_log: {
    params: (row) =>
      typeof row.params === 'string'
        ? row.params
        : legacyParams(
            String(row.action),
            String(row.summary),
            typeof row.details === 'string' ? row.details : null,
          ),
  },
};

/** Every column of every exported table, so that columns added later are exported unlisted. */
export async function exportData(db: Db, now = new Date()): Promise<ExportFile> {
  const tables = {} as ExportFile['tables'];
  for (const table of EXPORTED_TABLES) {
    tables[table] = await db
      .selectFrom(table)
      .selectAll()
      .orderBy(ORDER_BY[table] as never)
      .execute();
  }
  return { format: EXPORT_FORMAT, version: 1, exported_at: now.toISOString(), tables };
}

export async function isEmpty(db: Db): Promise<boolean> {
  for (const table of EXPORTED_TABLES) {
    if (
      await db
        .selectFrom(table)
        .select(sql`1`.as('x'))
        .limit(1)
        .executeTakeFirst()
    )
      return false;
  }
  return true;
}

export class ImportError extends Error {}

export function parseExport(text: string): ExportFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ImportError('the file is not JSON');
  }
  const file = data as Partial<ExportFile>;
  if (
    file?.format !== EXPORT_FORMAT ||
    file.version !== 1 ||
    typeof file.tables !== 'object' ||
    !file.tables
  ) {
    throw new ImportError(`the file is not a ${EXPORT_FORMAT} version 1 file`);
  }
  for (const table of EXPORTED_TABLES) {
    // A file from before a table existed has none of its rows.
    if (file.tables[table] === undefined && ADDED_LATER.has(table)) file.tables[table] = [];
    if (!Array.isArray(file.tables[table])) throw new ImportError(`the file has no "${table}" list`);
  }
  return file as ExportFile;
}

/**
 * Imports everything in one transaction. Refuses a database that holds data unless `force`,
 * which first deletes it. Ids are kept, so every answer of the API is reproduced. Columns
 * the file lacks (it is older than the database) take their defaults; a column the database
 * lacks (the file is newer) is refused rather than dropped.
 */
export async function importData(
  database: DbContext,
  file: ExportFile,
  force: boolean,
): Promise<Record<Table, number>> {
  const { db } = database;
  if (!force && !(await isEmpty(db))) {
    throw new ImportError('the database is not empty; use --force to replace its data');
  }
  const counts = {} as Record<Table, number>;
  await writeTransaction(database, async (trx) => {
    const rows = {} as Record<Table, Record<string, unknown>[]>;
    for (const table of EXPORTED_TABLES) rows[table] = await prepareRows(trx, table, file.tables[table]);
    for (const table of [...EXPORTED_TABLES].reverse()) await trx.deleteFrom(table).execute();
    for (const table of EXPORTED_TABLES) {
      for (const batch of batches(rows[table])) {
        await trx.insertInto(table).values(batch).execute();
      }
      counts[table] = rows[table].length;
    }
    for (const table of SERIAL_TABLES) await moveIdsPastRows(trx, table);
    // Derived from other tables, not from the row: a notification about a hidden comment.
    await deriveShown(trx);
  });
  return counts;
}

/** The file's rows checked against the table's columns, with the derived columns made again. */
async function prepareRows(
  db: Db,
  table: Table,
  rows: Record<string, unknown>[],
): Promise<Record<string, unknown>[]> {
  const columns = await tableColumns(db, table);
  const derived = DERIVED[table] ?? {};
  return rows.map((row, i) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) {
      throw new ImportError(`"${table}" item ${i + 1} is not an object`);
    }
    for (const column of Object.keys(row)) {
      if (!columns.has(column)) {
        throw new ImportError(
          `the file's "${table}" rows have a column "${column}" that this database has not (is the file from a newer version?)`,
        );
      }
    }
    const made = Object.fromEntries(Object.entries(derived).map(([column, make]) => [column, make(row)]));
    return { ...row, ...made };
  });
}

/**
 * Up to 200 consecutive rows with the same columns: a multi-row insert gives a row that lacks
 * a column NULL on SQLite, not the column's default.
 */
function* batches(rows: Record<string, unknown>[]): Generator<Record<string, unknown>[]> {
  let batch: Record<string, unknown>[] = [];
  let shape = '';
  for (const row of rows) {
    const rowShape = Object.keys(row).join(',');
    if (batch.length === 200 || (batch.length > 0 && rowShape !== shape)) {
      yield batch;
      batch = [];
    }
    shape = rowShape;
    batch.push(row);
  }
  if (batch.length > 0) yield batch;
}
