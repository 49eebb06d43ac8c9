import type { FastifyBaseLogger } from 'fastify';
import { isUnavailable, uniqueViolation } from '../db/dialect.ts';
import { conflict, DomainError } from '../errors.ts';

/**
 * SPEC.md's answers for a failed write: a unique violation on one of `conflicts`' columns
 * is its 409 message; an unreachable database stays a 503; anything else is logged and
 * answered `500 DB error` (DECISIONS.md: the detail goes to the log only).
 */
export function writeFailure(err: unknown, log: FastifyBaseLogger, conflicts: Record<string, string>): never {
  if (err instanceof DomainError || isUnavailable(err)) throw err;
  const columns = uniqueViolation(err);
  const message = columns?.map((c) => conflicts[c]).find(Boolean);
  if (message) throw conflict(message);
  log.error({ err }, 'database write failed');
  throw new DomainError(500, 'DB error');
}
