import type { Kysely } from 'kysely';
import { refoldNames } from './refold.ts';

/**
 * Teams' names compared as every name is (DECISIONS.md "Names and limits"), as migration 045
 * did for streamers: `name_fold`, unique, so that `team one` and `Теam One` (Cyrillic Т) are
 * 409 `Group name already exists` while `Team One` exists, by the database in any race. The
 * exact-name unique constraint stays. Teams that already fold alike keep their names; the
 * oldest holds the fold (refold.ts `refoldNames`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('rater_groups').addColumn('name_fold', 'text').execute();
  await refoldNames(db, 'rater_groups');
  await db.schema
    .createIndex('rater_groups_name_fold')
    .on('rater_groups')
    .column('name_fold')
    .unique()
    .execute();
}
