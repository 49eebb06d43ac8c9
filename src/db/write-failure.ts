import type { FastifyBaseLogger } from 'fastify';
import { foreignKeyViolation, uniqueViolation } from './dialect.ts';
import { failureOf } from './failures.ts';
import { DomainError, fail, type ErrorCode } from '../errors.ts';

/**
 * SPEC.md's answers for a failed write: a unique violation on one of `conflicts`' columns
 * is its 409 error; an unreachable database, a full disk or a lost race (deadlock) stays a 503; anything else is logged and
 * answered `500 DB error` (DECISIONS.md: the detail goes to the log only).
 */
export function writeFailure(
  err: unknown,
  log: FastifyBaseLogger,
  conflicts: Record<string, ErrorCode>,
): never {
  if (err instanceof DomainError || failureOf(err) !== null) throw err;
  const gone = deletedMeanwhile(err);
  if (gone) throw gone;
  const columns = uniqueViolation(err);
  const code = columns?.map((c) => conflicts[c]).find(Boolean);
  if (code) throw fail(code);
  log.error({ err }, 'database write failed');
  throw fail('db_error');
}

/** The answer to a write that named a row deleted meanwhile, by the table of that row. */
const GONE: Record<string, ErrorCode> = {
  streamers: 'streamer_not_found',
  comments: 'comment_not_found',
  rater_groups: 'group_not_found',
  // The account deleted (or signed out everywhere and deleted) while its request ran.
  users: 'not_logged_in',
};

/**
 * A write that met a foreign key because the row it names (its streamer, comment, team, the
 * signed-in account) was deleted by a concurrent write after its checks (PostgreSQL): the
 * answer it would have got a moment later, its 404 (a reply's parent: `Invalid reply_to`),
 * never a 500. Null for any other error. Asked on the failure path only.
 */
export function deletedMeanwhile(err: unknown): DomainError | null {
  const key = foreignKeyViolation(err);
  if (!key) return null;
  if (key.column === 'reply_to') return fail('invalid_reply_to');
  const code = GONE[key.table];
  return code ? fail(code) : null;
}
