import type { Kysely } from 'kysely';
import { refoldUsers, refoldWords } from './refold.ts';

/**
 * Name folding maps look-alike letters as written before their lower case (lib/names.ts): a
 * Cyrillic capital `М` looks like the Latin `M`, where its lower case `м` looks like no Latin
 * letter, so `МоdМах` folded apart from `ModMax` and a guest could pass for that user (a
 * browser walk, stop 69). The users' stored folds and the held words' folds are made again.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await refoldUsers(db);
  await refoldWords(db);
}
