import { type Kysely, sql } from 'kysely';
import { addChecks, idColumn } from '../dialect.ts';

/**
 * Trust is earned (issue 29) and a ban outlives the account (issue 30, item 1):
 * - users: `timeout_until` (a moderator's time-out) and `held` (an account that may be a banned
 *   user's return: its comments are held until staff approve one);
 * - comments: `pending` (held for a moderator: in no public answer or count until approved);
 * - `user_addresses`: the guest tags a user signed in from, with when last (a ban remembers
 *   those of the last 30 days);
 * - `ban_tombstones`: a ban kept by the person at the provider, so it outlives the account,
 *   and `ban_addresses`: the addresses the banned user came from, each for 30 days;
 * - `challenge_uses`: solutions of the guests' challenge already used (once across instances).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = idColumn(db);

  await db.schema.alterTable('users').addColumn('timeout_until', 'text').execute();
  await db.schema
    .alterTable('users')
    .addColumn('held', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('comments')
    .addColumn('pending', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await addChecks(db, 'users', { users_held_check: `"held" in (0, 1)` });
  await addChecks(db, 'comments', { comments_pending_check: `"pending" in (0, 1)` });
  // The queue's "Waiting" tab, oldest first, and the `first` rule's "has this tag been published".
  await sql`create index comments_pending_idx on comments (id) where pending = 1`.execute(db);

  await db.schema
    .createTable('user_addresses')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('guest_tag', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_addresses_pk', ['user_id', 'guest_tag'])
    .execute();

  await db.schema
    .createTable('ban_tombstones')
    .addColumn('id', idType, idDef)
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('ban_tombstones_person_unique', ['provider', 'provider_id'])
    .execute();
  await db.schema
    .createTable('ban_addresses')
    .addColumn('id', idType, idDef)
    .addColumn('tombstone_id', 'integer', (c) =>
      c.notNull().references('ban_tombstones.id').onDelete('cascade'),
    )
    .addColumn('guest_tag', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('ban_addresses_unique', ['tombstone_id', 'guest_tag'])
    .execute();
  await db.schema
    .createIndex('ban_addresses_tag_idx')
    .on('ban_addresses')
    .columns(['guest_tag', 'expires_at'])
    .execute();

  // A guest's burst (guests/rules.ts) counts the address's posts since a minute ago: by tag
  // and time, so the count reads that minute only, however much the address posted before.
  await db.schema
    .createIndex('comments_guest_burst_idx')
    .on('comments')
    .columns(['guest_tag', 'created_at'])
    .execute();
  await db.schema
    .createIndex('streamers_guest_burst_idx')
    .on('streamers')
    .columns(['guest_tag', 'created_at'])
    .execute();

  await db.schema
    .createTable('challenge_uses')
    .addColumn('signature', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}
