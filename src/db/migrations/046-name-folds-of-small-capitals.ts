import type { Kysely } from 'kysely';
import { refoldNames, refoldUsers, refoldWords } from './refold.ts';

/**
 * Name folding reads Latin small capitals as their letters (lib/names.ts): `ᴀᴅᴍɪɴ` folded apart
 * from `admin`, so a guest could take the reserved name, or a user's or a streamer's, in small
 * capitals (a browser walk, stop 91). The users', the held words' and the streamers' stored
 * folds are made again; streamers whose names now fold alike keep their names, the oldest
 * holding the fold (as migration 045).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await refoldUsers(db);
  await refoldWords(db);
  await refoldNames(db, 'streamers');
}
