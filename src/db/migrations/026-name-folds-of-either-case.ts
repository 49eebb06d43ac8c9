import type { Kysely } from 'kysely';
import { refoldUsers } from './refold.ts';

/**
 * Name folding drops invisible characters (bidi controls, fillers such as U+3164) and makes
 * `i` and `l` one letter, the skeleton of either case (issue 45, item 9; lib/names.ts): every
 * user's stored folds are made again with it, so that `agraeIus` meets the `agraelus` who
 * signed in before. Only the folds change, never a name, and only where they differ.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await refoldUsers(db);
}
