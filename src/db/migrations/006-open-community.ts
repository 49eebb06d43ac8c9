import { type Kysely, sql } from 'kysely';
import { foldName } from '../../lib/names.ts';
import { addChecks, idColumn } from '../dialect.ts';

/**
 * An open community (DECISIONS.md "Third wave"): guest tags on comments and suggestions (a
 * keyed hash of the client address, never the address), names folded for the reserved-name
 * rule, personal administrator accounts, reports with one open report per comment and
 * reporter, and address blocks.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  const [idType, idDef] = idColumn(db);

  await db.schema.alterTable('comments').addColumn('guest_tag', 'text').execute();
  await db.schema.createIndex('comments_guest_tag_idx').on('comments').column('guest_tag').execute();
  await db.schema.alterTable('streamers').addColumn('guest_tag', 'text').execute();

  // Names folded (case, diacritics, spaces) so a guest cannot take a user's name in any spelling.
  await db.schema
    .alterTable('users')
    .addColumn('login_fold', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('display_fold', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  const users = await db.selectFrom('users').select(['id', 'login', 'display_name']).execute();
  for (const u of users as { id: number; login: string; display_name: string }[]) {
    await db
      .updateTable('users')
      .set({ login_fold: foldName(u.login), display_fold: foldName(u.display_name) })
      .where('id', '=', u.id)
      .execute();
  }
  await db.schema.createIndex('users_login_fold_idx').on('users').column('login_fold').execute();
  await db.schema.createIndex('users_display_fold_idx').on('users').column('display_fold').execute();
  // A banned user is never an administrator (banning clears the flag).
  await addChecks(db, 'users', {
    users_is_admin_check: `"is_admin" in (0, 1) and ("is_admin" = 0 or coalesce("banned", 0) = 0)`,
  });

  await db.schema
    .createTable('reports')
    .addColumn('id', idType, idDef)
    .addColumn('comment_id', 'integer', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    /** `u:<user id>` or `g:<guest tag>`: one open report per comment and reporter. */
    .addColumn('reporter', 'text', (c) => c.notNull())
    .addColumn('reporter_user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull().check(sql`reason in ('spam', 'abuse', 'other')`))
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('closed_at', 'text')
    .execute();
  await sql`create unique index reports_open_unique on reports (comment_id, reporter) where closed_at is null`.execute(
    db,
  );
  await db.schema.createIndex('reports_user_idx').on('reports').column('reporter_user_id').execute();

  await db.schema
    .createTable('address_blocks')
    .addColumn('id', idType, idDef)
    .addColumn('guest_tag', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('comment_id', 'integer', (c) => c.references('comments.id').onDelete('set null'))
    .addCheckConstraint('address_blocks_expiry_check', sql`expires_at > created_at`)
    .execute();
  await db.schema
    .createIndex('address_blocks_tag_idx')
    .on('address_blocks')
    .columns(['guest_tag', 'expires_at'])
    .execute();
}
