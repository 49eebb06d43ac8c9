import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { makeAnswer } from '../cache/answer.ts';
import { sendAnswer } from '../cache/sender.ts';
import { latestApplied, latestKnown } from '../db/migrator.ts';
import { DomainError } from '../errors.ts';
import { flag } from '../lib/input.ts';
import { ErrorBody, FlagDoc, Ok, Param, StringEnum } from '../lib/schemas.ts';
import { VERSION } from '../lib/version.ts';
import { type HealthCheck, ReadOnlyDatabase } from './check.ts';

const Detail = Type.Object(
  {
    ok: Type.Unsafe<true>({ type: 'boolean', const: true }),
    version: Type.String({
      description: "This instance's version (package.json, CHANGELOG.md)",
      examples: ['0.4.0'],
    }),
    migrations: Type.Object(
      {
        database: Type.Union([Type.String(), Type.Null()], {
          description: 'The newest migration applied to the database (null before the first)',
          examples: ['011-name-skeletons'],
        }),
        build: Type.String({
          description:
            'The newest migration this instance knows: a newer database means a newer instance migrated it',
          examples: ['011-name-skeletons'],
        }),
      },
      { additionalProperties: false },
    ),
  },
  { title: 'HealthDetail', additionalProperties: false },
);

/**
 * The check an unhealthy instance failed, named as `db_errors_total` names its kinds (metrics/):
 * said with `?detail=1` only, so that the plain 503 stays the documented `{error, code}`.
 */
const FAILED_CHECKS = ['unavailable', 'read_only', 'disk_full'] as const;
type FailedCheck = (typeof FAILED_CHECKS)[number];

/** The 503's `Error`, and on `?detail=1` the check that failed (openapi/rules.ts keeps its schema). */
const Unhealthy = Type.Object(
  {
    error: ErrorBody.properties.error,
    code: ErrorBody.properties.code,
    failed: Type.Optional(
      StringEnum(FAILED_CHECKS, {
        description:
          'With `?detail=1`, the check that failed: `unavailable` (the database does not answer), ' +
          '`read_only` (PostgreSQL: it answers but takes no writes, a standby after a failover), ' +
          '`disk_full` (a write failed for a full disk in the last minute, none committed since)',
      }),
    ),
  },
  { title: 'HealthError' },
);

/**
 * `GET /healthz`: 200 when the database answers and takes writes, 503 otherwise (for load
 * balancers; a write that failed for a full disk in the last minute, none committed since). With
 * `?detail=1` also the version and the migrations, for an operator checking an upgrade
 * (docs/decisions.md "Versions"): facts of the public source, nothing of the configuration;
 * and on a 503 which check failed (`failed`), which the log says only once a minute.
 */
export const healthRoutes: FastifyPluginAsyncTypebox<{ check: HealthCheck }> = async (app, { check }) => {
  // A full disk refuses writes while the database still answers: the instance is not healthy.
  const cannotWrite = () => app.database.failures.cannotWrite(() => app.clock.now().getTime());
  const healthy = makeAnswer('{"ok":true}', {
    type: 'application/json; charset=utf-8',
    cacheControl: 'no-store',
    version: null,
    etag: null,
  });
  // Every load balancer asks every few seconds: while the database answered lately (check.ts),
  // the answer is written before routing.
  app.earlyAnswers.exact('/healthz', {
    route: '/healthz',
    find: () => (check() === undefined && !cannotWrite() ? healthy : undefined),
  });

  app.get(
    '/healthz',
    {
      config: { guard: 'public', session: false },
      schema: {
        summary: 'Health: 200 while the database answers, else 503',
        querystring: Type.Object({
          detail: Param(
            FlagDoc('The version and the migrations too; on a 503, which check failed (`failed`)'),
          ),
        }),
        response: { 200: Type.Union([Detail, Ok]), 503: Unhealthy },
      },
    },
    async (request, reply) => {
      const detail = flag(request.query.detail);
      const unhealthy = (failed: FailedCheck) =>
        new DomainError('service_unavailable', {
          headers: { 'retry-after': '5' },
          extra: detail ? { failed } : {},
        });
      // The full disk's writes say it in the log, once a minute (db/failures.ts).
      if (cannotWrite()) throw unhealthy('disk_full');
      try {
        await check();
        if (detail) {
          return {
            ok: true as const,
            version: VERSION,
            migrations: { database: await latestApplied(app.db), build: latestKnown() },
          };
        }
      } catch (err) {
        // Said once a minute with the checks it failed, as the requests' failures are; and its end.
        const failures = app.database.failures.saw('unavailable', app.clock.now().getTime());
        if (failures !== null) request.log.warn({ err, failures }, 'health check: database unavailable');
        throw unhealthy(err instanceof ReadOnlyDatabase ? 'read_only' : 'unavailable');
      }
      return sendAnswer(request, reply, healthy);
    },
  );
};
