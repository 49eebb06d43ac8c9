import { type Kysely, sql } from 'kysely';

/**
 * Idempotency keys (issue 30 item 11): one row per key and sender, kept for a day. A row is
 * written before the request runs (a claim: `status` null), so that of two requests with the
 * same key, on any instance, only the one whose insert wins runs; the answer is written into
 * it afterwards. The primary key is that rule; the CHECK keeps only 2xx and 4xx answers.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    /** `user:<id>`, `session:<tag>` or `guest:<address tag>`: whose key it is. */
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    /** SHA-256 of the method, the path with its query and the body. */
    .addColumn('request', 'text', (c) => c.notNull())
    /** The answer's status; null while the request runs. */
    .addColumn('status', 'integer')
    /** JSON: the answer's headers that are replayed (content-type, location). */
    .addColumn('headers', 'text')
    .addColumn('body', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['sender', 'key'])
    .addCheckConstraint(
      'idempotency_keys_status_check',
      sql`"status" is null or ("status" >= 200 and "status" < 500 and "body" is not null)`,
    )
    .execute();
  await db.schema
    .createIndex('idempotency_keys_created')
    .on('idempotency_keys')
    .column('created_at')
    .execute();
}
