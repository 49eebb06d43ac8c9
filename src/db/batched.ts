import type { Db } from './schema.ts';

/**
 * Writes of one kind that run together in a group commit (db/group-commit.ts `GroupCommit`):
 * comment posts (comments/post.ts) and votes (votes/vote.ts).
 */

/** How one write of a group ended. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; err: unknown };

/**
 * Writes of one kind that a group commit runs together: `many` takes every such write of the
 * group at once and answers each one's outcome, in order (comment posts: one query asks every
 * post's rules, one insert stores them, comments/post.ts). A write it refuses must have written
 * nothing. Its writes share one savepoint; should `many` throw, that savepoint is rolled back and
 * each write runs again alone, `many` of one, in a savepoint of its own, so that one failing
 * write fails alone.
 */
export interface Batch<I, T> {
  many(trx: Db, inputs: readonly I[]): Promise<Outcome<T>[]>;
  /**
   * PostgreSQL: advisory locks a group takes for its writes of this kind as it begins, before it
   * reads: for a rule two groups' writes could break together (equal comments, comments/post.ts).
   * `keys` names them (db/group-locks.ts), taken where `when`, an SQL condition without parameters.
   */
  locks?: { keys(inputs: readonly I[]): bigint[]; when: string };
}
