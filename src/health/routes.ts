import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CompiledQuery } from 'kysely';
import { DomainError } from '../errors.ts';
import { errors, OK, Ok } from '../lib/schemas.ts';

const SELECT_ONE = CompiledQuery.raw('select 1');

/** The SQLite handle, when SQLite: its `select 1` is prepared once and run synchronously. */
interface Prepares {
  prepare(sql: string): { get(): unknown };
}

/** `GET /healthz`: 200 when the database answers, 503 otherwise (for load balancers). */
export const healthRoutes: FastifyPluginAsyncTypebox<{ sqlite?: Prepares }> = async (app, opts) => {
  const statement = opts.sqlite?.prepare('select 1');
  const ping = statement
    ? async () => void statement.get()
    : async () => void (await app.db.executeQuery(SELECT_ONE));
  app.get(
    '/healthz',
    {
      config: { guard: 'public', session: false },
      schema: {
        summary: 'Health: 200 while the database answers, else 503',
        response: { 200: Ok, ...errors(503) },
      },
    },
    async (request) => {
      try {
        await ping();
        return OK;
      } catch (err) {
        request.log.warn({ err }, 'health check: database unavailable');
        throw new DomainError(503, 'Service unavailable', { 'retry-after': '5' });
      }
    },
  );
};
