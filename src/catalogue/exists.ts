import { compiledOnce } from '../db/compiled.ts';
import type { Db } from '../db/schema.ts';

const streamerExistsQuery = compiledOnce((db) => db.selectFrom('streamers').select('id').where('id', '=', 0));

/** Is there a streamer with this id, in the Public view or not (its comments, its teams' ratings)? */
export async function streamerExists(db: Db, id: number): Promise<boolean> {
  return (await streamerExistsQuery(db, [id])).rows.length > 0;
}
