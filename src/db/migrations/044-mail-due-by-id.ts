import type { Kysely } from 'kysely';

/**
 * The e-mail outbox's due index takes the id after `not_before`, as push's and Discord's do:
 * due messages are claimed in that order (mail/queries.ts `dueMailQuery`), and PostgreSQL then
 * reads them from the index in order and stops at the claim's limit, where it sorted every due
 * row for each claim. (SQLite's index held the row id already.)
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('mail_outbox_due').execute();
  await db.schema
    .createIndex('mail_outbox_due')
    .on('mail_outbox')
    .columns(['state', 'not_before', 'id'])
    .execute();
}
