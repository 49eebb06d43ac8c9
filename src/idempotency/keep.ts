import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/schema.ts';
import { keepIn } from './queries.ts';

/**
 * What an operation calls last inside its write transaction with the answer its route sends:
 * keeps it under the request's `Idempotency-Key` (plugin.ts), in that transaction. Answers
 * the answer.
 */
export type Keep = <T>(trx: Db, answer: T) => Promise<T>;

/** For an operation run without a request (the CLI, another operation): keeps nothing. */
export const keepNothing: Keep = async (_trx, answer) => answer;

/** The headers of a kept answer that its replay carries (never a cookie). */
function replayedHeaders(reply: FastifyReply): Record<string, string> {
  const type = reply.getHeader('content-type');
  const location = reply.getHeader('location');
  return {
    'content-type': typeof type === 'string' ? type : 'application/json; charset=utf-8',
    ...(typeof location === 'string' ? { location } : {}),
  };
}

/**
 * The Keep of a request whose route answers `status` with what the operation gives it: the
 * answer is serialized by the route's response schema, as the route will send it.
 */
export function keepAnswer(request: FastifyRequest, reply: FastifyReply, status: number): Keep {
  return async (trx, answer) => {
    const pending = request.idempotency;
    if (pending === null) return answer;
    reply.code(status);
    const body = reply.serialize(answer);
    if (typeof body !== 'string') throw new Error(`${request.url}: a kept answer is text`);
    await keepIn(trx, pending, { status, headers: replayedHeaders(reply), body });
    return answer;
  };
}
