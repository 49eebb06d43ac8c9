import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CompiledQuery } from 'kysely';
import { DomainError } from '../errors.ts';
import { errors, OK, Ok } from '../lib/schemas.ts';

const SELECT_ONE = CompiledQuery.raw('select 1');

/** A database that answered this recently is not asked again (milliseconds). */
export const HEALTH_FRESH_MS = 100;

/** The SQLite handle, when SQLite: its `select 1` is prepared once and run synchronously. */
interface Prepares {
  prepare(sql: string): { get(): unknown };
}

/**
 * The database check of /healthz, shared: after a successful answer the database is not
 * asked again for HEALTH_FRESH_MS, and requests that arrive while a check runs wait for
 * that one. A storm of health checks (several load balancers, a monitor gone wild) costs
 * the database ten queries a second at most; a failure is never remembered, so the first
 * check after the database stops answering already reports it.
 */
export function sharedCheck(check: () => Promise<void>): () => Promise<void> | undefined {
  let answeredAt = Number.NEGATIVE_INFINITY;
  let running: Promise<void> | null = null;
  return () => {
    if (performance.now() - answeredAt < HEALTH_FRESH_MS) return undefined;
    running ??= check().then(
      () => {
        answeredAt = performance.now();
        running = null;
      },
      (err: unknown) => {
        running = null;
        throw err;
      },
    );
    return running;
  };
}

/** `GET /healthz`: 200 when the database answers, 503 otherwise (for load balancers). */
export const healthRoutes: FastifyPluginAsyncTypebox<{ sqlite?: Prepares }> = async (app, opts) => {
  const statement = opts.sqlite?.prepare('select 1');
  const check = sharedCheck(
    statement ? async () => void statement.get() : async () => void (await app.db.executeQuery(SELECT_ONE)),
  );
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
        await check();
        return OK;
      } catch (err) {
        request.log.warn({ err }, 'health check: database unavailable');
        throw new DomainError(503, 'Service unavailable', { 'retry-after': '5' });
      }
    },
  );
};
