import type { Kysely } from 'kysely';
import { idColumn } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const [idType, idDef] = idColumn(db);
  await db.schema
    .createTable('audit_log')
    .addColumn('id', idType, idDef)
    .addColumn('at', 'text', (c) => c.notNull())
    /** `admin`, or `user` for a moderator acting through their account. */
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'integer')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer')
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('details', 'text')
    .execute();
}
