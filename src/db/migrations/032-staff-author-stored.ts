import type { Kysely } from 'kysely';
import { DEFAULT_AUTHOR, STAFF_AUTHOR } from '../../shared/rules.ts';

/**
 * DECISIONS.md "Fifth wave", "The change": a comment keeps the author the administrator gave,
 * and one without is stored by the staff label, so an answer shows the stored author as it is.
 * The administrator's comments stored before the staff label existed carry the guests' default
 * name: they get the label once here (the ones since then already carry it).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await db
    .updateTable('comments')
    .set({ author: STAFF_AUTHOR })
    .where('user_id', 'is', null)
    .where('is_admin', '=', 1)
    .where('author', '=', DEFAULT_AUTHOR)
    .execute();
}
