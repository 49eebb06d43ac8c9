import type { Kysely } from 'kysely';
import { refoldUsers } from './refold.ts';

/**
 * Name folding drops symbols as it drops punctuation (lib/names.ts): `ModMax ✓` folded apart
 * from `ModMax`, so a guest could pass for that user with a check mark after the name (a
 * browser walk, stop 81). The users' stored folds are made again; the held words are folded
 * as words, which keep their symbols, and do not change.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await refoldUsers(db);
}
