import type { FastifyBaseLogger } from 'fastify';
import { uniqueViolation } from './dialect.ts';
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
  const columns = uniqueViolation(err);
  const code = columns?.map((c) => conflicts[c]).find(Boolean);
  if (code) throw fail(code);
  log.error({ err }, 'database write failed');
  throw fail('db_error');
}
