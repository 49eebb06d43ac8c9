import { type Kysely, sql } from 'kysely';
import { idColumn } from '../dialect.ts';

/**
 * E-mail (DECISIONS.md "Fifth wave" → "E-mail"); every row goes with its user (cascade).
 *
 * `mail_settings`: one row per user who gave an address or chose what to get: the confirmed
 * address, the one waiting for its confirmation, the kinds and the digest, the language the
 * messages speak, and the kinds' pacing: `mailed_through` (the last notification a message
 * told of), `due_at` (a message of kinds is waiting; at most one per 10 minutes: it is due when
 * the last one's `quiet_until` passes, and gathers whatever came meanwhile).
 *
 * `mail_tokens`: the links' tokens, stored as SHA-256 digests only: a confirmation (the address
 * it confirms, expiring) or an unsubscription (what it turns off). Their count per user and day
 * is the confirmations' limit.
 *
 * `mail_outbox`: one row per message. `(user_id, dedupe)` is unique: the step that queues a
 * message (a digest's week, the last notification a message of kinds tells of, a confirmation's
 * token) cannot queue it twice, also across a restart or two instances. A row is claimed
 * (`sending`) before it is handed to the SMTP server, so it is never handed over twice.
 *
 * `mail_digests`: one row per weekly slot, with how far through the users it has gone, so that a
 * digest interrupted half way resumes where it stopped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = idColumn(db);
  await db.schema
    .createTable('mail_settings')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text')
    .addColumn('pending_email', 'text')
    .addColumn('kinds', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('digest', 'text', (c) => c.notNull().defaultTo('off'))
    .addColumn('lang', 'text', (c) => c.notNull().defaultTo('cs'))
    .addColumn('mailed_through', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('due_at', 'text')
    .addColumn('quiet_until', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addCheckConstraint('mail_settings_digest_check', sql`"digest" in ('off', 'weekly')`)
    .addCheckConstraint('mail_settings_lang_check', sql`"lang" in ('cs', 'en')`)
    .addCheckConstraint(
      'mail_settings_email_check',
      sql`length("email") <= 254 and length("pending_email") <= 254`,
    )
    .execute();
  await db.schema.createIndex('mail_settings_due').on('mail_settings').column('due_at').execute();

  await db.schema
    .createTable('mail_tokens')
    .addColumn('id', idType, idDef)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    /** confirm: the address it confirms; unsubscribe: what it turns off (kinds, `digest` or `confirm`). */
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('used_at', 'text')
    .addCheckConstraint('mail_tokens_purpose_check', sql`"purpose" in ('confirm', 'unsubscribe')`)
    .execute();
  await db.schema
    .createIndex('mail_tokens_user')
    .on('mail_tokens')
    .columns(['user_id', 'purpose', 'created_at'])
    .execute();

  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', idType, idDef)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('dedupe', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('not_before', 'text', (c) => c.notNull())
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint('mail_outbox_kind_check', sql`"kind" in ('confirm', 'kinds', 'digest')`)
    .addCheckConstraint(
      'mail_outbox_state_check',
      sql`"state" in ('pending', 'sending', 'sent', 'failed', 'unknown')`,
    )
    .execute();
  await db.schema
    .createIndex('mail_outbox_once')
    .on('mail_outbox')
    .columns(['user_id', 'dedupe'])
    .unique()
    .execute();
  await db.schema.createIndex('mail_outbox_due').on('mail_outbox').columns(['state', 'not_before']).execute();

  await db.schema
    .createTable('mail_digests')
    .addColumn('slot', 'text', (c) => c.primaryKey())
    .addColumn('through_user', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('finished_at', 'text')
    .execute();
}
