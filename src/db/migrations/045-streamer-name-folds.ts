import type { Kysely } from 'kysely';
import { refoldNames } from './refold.ts';

/**
 * Streamers' names compared as every name is (DECISIONS.md "Names and limits"): `name_fold`,
 * the name's fold (lib/names.ts), unique, so that `Аlpha` (Cyrillic А), `Álpha`, `A l p h a`
 * and `Alpha.` are refused while `Alpha` exists, by the database on both kinds and in any
 * race. `name_key` (the lower case) stays for ordering by name. Streamers that already fold
 * alike keep their names; the oldest holds the fold (refold.ts `refoldNames`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('streamers').addColumn('name_fold', 'text').execute();
  await refoldNames(db, 'streamers');
  await db.schema.createIndex('streamers_name_fold').on('streamers').column('name_fold').unique().execute();
}
