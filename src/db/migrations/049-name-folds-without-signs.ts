import type { Kysely } from 'kysely';
import { refoldNames, refoldUsers } from './refold.ts';

/**
 * Name folding drops a symbol whose compatibility form is several letters before it unifies
 * them (lib/names.ts): `Alice™` folded as `AliceTM`, apart from `Alice`, so a guest passed for
 * that user (or `Admin℠` for the administrator) with a sign after the name (an attacker's
 * walk). The users', streamers' and teams' stored folds are made again; the held words are
 * folded as words and do not change.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await refoldUsers(db);
  await refoldNames(db, 'streamers');
  await refoldNames(db, 'rater_groups');
}
