import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import { adminHashSource, sharedSecret } from './auth/admin-password.ts';
import { auditRoutes } from './audit/routes.ts';
import { accountRoutes } from './account/routes.ts';
import { backupPlugin } from './backup/plugin.ts';
import { adminAuthRoutes } from './auth/routes.ts';
import { challengeKey } from './guests/challenge.ts';
import { ownCommentsKey } from './comments/own-cookie.ts';
import { challengeRoutes } from './guests/routes.ts';
import { commentRoutes } from './comments/routes.ts';
import { communityRoutes } from './community/routes.ts';
import type { Config } from './config/config.ts';
import type { AppContext } from './context.ts';
import { EarlyAnswers, serverWithEarlyAnswers } from './cache/early.ts';
import { Traffic } from './lib/traffic.ts';
import { keepWalBounded } from './db/checkpoint.ts';
import type { DbContext } from './db/context.ts';
import type { Db } from './db/schema.ts';
import { registerOpenApi } from './openapi/openapi.ts';
import { openApiRoutes } from './openapi/routes.ts';
import { groupRoutes, teamMemberRoutes } from './groups/routes.ts';
import { discordPlugin } from './discord/plugin.ts';
import { pushPlugin } from './push/plugin.ts';
import { pushRoutes } from './push/routes.ts';
import { idempotencyPlugin } from './idempotency/plugin.ts';
import { imageRoutes } from './images/routes.ts';
import { chatLineRoutes } from './chat-line/routes.ts';
import { databaseCheck } from './health/check.ts';
import {
  CONNECTION_POLICY,
  type ConnectionPolicy,
  limitConnections,
  serverOptions,
} from './http/connections.ts';
import { healthRoutes } from './health/routes.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { lazyCompilers } from './lib/lazy-compilers.ts';
import { DOCUMENTED } from './lib/schemas.ts';
import { mailPlugin } from './mail/plugin.ts';
import { mailKey } from './mail/tokens.ts';
import { metricsPlugin } from './metrics/plugin.ts';
import { metricsRoutes } from './metrics/routes.ts';
import { appLogging } from './lib/log.ts';
import { requestLogger } from './lib/request-log.ts';
import { cacheControlPlugin } from './plugins/cache-control.ts';
import { csrfPlugin } from './plugins/csrf.ts';
import { clientErrorHandler, errorsPlugin, frameworkErrors } from './plugins/errors.ts';
import { externalPlugins } from './plugins/external.ts';
import { forwardedWarningPlugin } from './plugins/forwarded-warning.ts';
import { guestTagPlugin } from './plugins/guest-tag.ts';
import { type DescriptorSource, loadShedding, type LoopDelaySource } from './plugins/load-shedding.ts';
import { guardsPlugin } from './plugins/guards.ts';
import { parseQuery, parsersPlugin } from './plugins/parsers.ts';
import { answerCachePlugin } from './plugins/answer-cache.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { sessionPlugin } from './plugins/session.ts';
import { viewerPlugin } from './plugins/viewer.ts';
import { moderationRoutes } from './moderation/routes.ts';
import { notificationRoutes } from './notifications/routes.ts';
import { unreadCount } from './notifications/queries.ts';
import { streamerSight } from './streamers/views.ts';
import { eventRoutes } from './events/routes.ts';
import { streamsWithin } from './events/streams.ts';
import { feedRoutes } from './feeds/routes.ts';
import { followRoutes } from './follows/routes.ts';
import { reviewRoutes } from './reviews/routes.ts';
import { reportRoutes } from './reports/routes.ts';
import { sessionRoutes } from './sign-out/routes.ts';
import { settingsRoutes } from './settings/routes.ts';
import { devProviderRoutes } from './signin/dev-providers.ts';
import { devLiveRoutes } from './sync/dev-live.ts';
import { signInRoutes } from './signin/routes.ts';
import { streamerRoutes } from './streamers/routes.ts';
import { scheduleRoutes } from './schedules/routes.ts';
import { liveSyncPlugin } from './sync/plugin.ts';
import { syncRoutes } from './sync/routes.ts';
import { userRoutes } from './users/routes.ts';
import { voteRoutes } from './votes/routes.ts';
import { pageRoutes } from './pages/routes.ts';
import { refuseOtherMethods } from './lib/method-not-allowed.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** The answers written before routing, which features register beside their routes (cache/early.ts). */
    earlyAnswers: EarlyAnswers;
    /** The open database and what this process keeps about it (db/context.ts). */
    database: DbContext;
    /** `database.db`: what queries run on. */
    db: Db;
    clock: Clock;
    /** Requests a second, which background work gives way to (lib/traffic.ts). */
    traffic: Traffic;
  }
}

export interface AppOptions {
  config: Config;
  /** The open, migrated database (db/connect.ts `openDatabase`). */
  database: DbContext;
  clock?: Clock;
  /** Where load shedding reads the event loop's delay (this process's loop by default). */
  loopDelay?: LoopDelaySource;
  /** The open file descriptors and their limit (this process's from /proc unless a test gives its own). */
  descriptors?: DescriptorSource;
  /** Fastify's logger option; tests pass a stream to read the log. */
  logger?: FastifyServerOptions['logger'];
  /** Or the logger itself: the start's (server.ts), which logged before the app existed. */
  loggerInstance?: FastifyBaseLogger;
  /** Timeouts and connection limits other than CONNECTION_POLICY's (tests make them small). */
  connections?: Partial<ConnectionPolicy>;
}

export const BODY_LIMIT = 64 * 1024;

/** Builds the whole service from a configuration and an open, migrated database. */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const clock = opts.clock ?? systemClock;
  // The database's writes stamp their events with the app's clock (db/event-log.ts).
  database.groupCommit.clock = clock;

  const logging = appLogging(opts, config);
  const early = new EarlyAnswers();
  const traffic = new Traffic(clock);
  const connections: ConnectionPolicy = { ...CONNECTION_POLICY, ...opts.connections };
  const app = Fastify({
    serverFactory: serverWithEarlyAnswers(early, traffic),
    // The timeouts, from the server's creation (http/connections.ts).
    // HTTP/1.0 clients send no Host; Node would answer them itself, without our headers.
    ...serverOptions(connections, { requireHostHeader: false }),
    ...logging.options,
    // Fastify's "incoming request" and "request completed" lines are info: above that level
    // they are not even assembled (their arguments cost a tenth of a small answer).
    logController: new LogController({ disableRequestLogging: !logging.requestLines }),
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustProxy.length > 0 ? [...config.trustProxy] : false,
    routerOptions: { maxParamLength: 200, querystringParser: parseQuery },
    frameworkErrors: frameworkErrors(config.https),
    clientErrorHandler: clientErrorHandler(config.https),
    schemaController: { compilersFactory: lazyCompilers() },
    ajv: AJV_OPTIONS,
  }).withTypeProvider<TypeBoxTypeProvider>();

  limitConnections(app.server, connections, config.trustProxy);
  app.setChildLoggerFactory(requestLogger);
  app.decorate('config', config);
  app.decorate('earlyAnswers', early);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('clock', clock);
  app.decorate('traffic', traffic);
  app.addHook('onClose', async () => traffic.stop());

  const secret = await registerFoundations(app, opts);
  await registerFeatures(app, opts, secret, connections);
  // Last of the routes: every address outside /api/ answers the methods it lacks with 405.
  refuseOtherMethods(app);
  await app.register(loadShedding, { config, loopDelay: opts.loopDelay, descriptors: opts.descriptors });

  // Answers before routing only where nothing else can differ: request lines are not logged
  // (LOG_REQUESTS unset, the default) and no origin may call with CORS.
  if (!logging.requestLines && config.corsOrigins.length === 0) {
    app.addHook('onReady', async () => early.enable(app.securityHeaders));
    app.addHook('preClose', async () => early.disable());
  }

  const { sqlite } = database;
  if (sqlite && !sqlite.memory) {
    const wal = keepWalBounded(sqlite, (err) => app.log.warn({ err }, 'WAL checkpoint failed'));
    app.addHook('onClose', async () => wal.stop());
  }

  return app;
}

/**
 * Ajv's options: no coercion, no removal. Each field's SPEC.md error, read by the error
 * handler, and the documented twin of an input schema, read by the API document
 * (lib/schemas.ts), are annotations, never validated.
 */
const AJV_OPTIONS: FastifyServerOptions['ajv'] = {
  customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false },
  plugins: [
    (ajv) =>
      ajv
        .addKeyword({ keyword: 'errorCode', schemaType: 'string' })
        .addKeyword({ keyword: 'errorField', schemaType: 'string' })
        .addKeyword({ keyword: DOCUMENTED, schemaType: 'object' }),
  ],
};

/**
 * What every route stands on, in order: metrics, errors, headers, parsers, idempotency, CSRF,
 * the session and the viewer, the guards and the answer cache; then the operations' context
 * (src/context.ts). Returns the secret the keys are made from.
 */
async function registerFoundations(app: FastifyInstance, opts: AppOptions): Promise<string> {
  const { config, database } = opts;
  const { db, clock } = app;
  // Before the errors plugin: its 404 handler takes the hooks registered until then.
  await app.register(metricsPlugin, { pool: database.pool, failures: database.failures });
  await app.register(errorsPlugin);
  await app.register(securityHeadersPlugin, { https: config.https });
  await app.register(cacheControlPlugin);
  await app.register(parsersPlugin);
  await app.register(forwardedWarningPlugin);
  // Before the routes: it adds its look-up to each POST route that takes an Idempotency-Key.
  await app.register(idempotencyPlugin);
  await app.register(externalPlugins, { config, db, clock });
  await app.register(csrfPlugin, { origin: config.origin, allowed: config.corsOrigins });
  const secret = config.sessionSecret ?? (await sharedSecret(db, 'session_secret'));
  await app.register(guestTagPlugin, { secret });
  app.decorate('challengeKey', challengeKey(secret));
  app.decorate('ownCommentsKey', ownCommentsKey(secret));
  await app.register(sessionPlugin, { database, clock, https: config.https, secret });
  await app.register(viewerPlugin, { clock, passwordLogin: config.adminPasswordLogin });
  await app.register(guardsPlugin);
  await app.register(answerCachePlugin, {
    database,
    postgresUrl: config.databaseUrl.startsWith('postgres') ? config.databaseUrl : null,
  });
  // What the operations are given (src/context.ts): made once the keys and the cache exist.
  app.decorate(
    'ctx',
    Object.freeze({
      database,
      db,
      clock,
      config,
      challengeKey: app.challengeKey,
      ownCommentsKey: app.ownCommentsKey,
      answers: app.answers,
      log: app.log,
    }) satisfies AppContext,
  );
  await registerOpenApi(app, config);
  return secret;
}

/** Every feature's routes and background work, the page's last. */
async function registerFeatures(
  app: FastifyInstance,
  opts: AppOptions,
  secret: string,
  connections: ConnectionPolicy,
): Promise<void> {
  const { config, database } = opts;
  await app.register(adminAuthRoutes, { adminHash: await adminHashSource(config) });
  await app.register(streamerRoutes);
  await app.register(scheduleRoutes);
  await app.register(commentRoutes);
  await app.register(challengeRoutes);
  await app.register(groupRoutes);
  await app.register(teamMemberRoutes);
  await app.register(communityRoutes);
  await app.register(auditRoutes);
  await app.register(userRoutes);
  await app.register(discordPlugin);
  await app.register(settingsRoutes);
  await app.register(reportRoutes);
  await app.register(moderationRoutes);
  await app.register(sessionRoutes);
  await app.register(voteRoutes);
  await app.register(followRoutes);
  await app.register(reviewRoutes);
  await app.register(pushPlugin);
  await app.register(pushRoutes);
  await app.register(accountRoutes);
  await app.register(mailPlugin, { key: mailKey(secret) });
  await app.register(notificationRoutes);
  await app.register(eventRoutes, {
    maxStreams: streamsWithin(connections.total),
    unread: (userId) => unreadCount(database.db, userId),
    ...streamerSight(app.ctx),
  });
  await app.register(feedRoutes);
  await app.register(liveSyncPlugin);
  await app.register(syncRoutes);
  await app.register(backupPlugin, { sqlite: database.sqlite });
  await app.register(signInRoutes);
  if (config.devProviders) {
    // The stand-ins' sign-in grants the app tokens that their live APIs accept.
    const appTokens = new Set<string>();
    await app.register(devProviderRoutes, { appTokens });
    devLiveRoutes(app, appTokens);
  }
  await app.register(healthRoutes, { check: databaseCheck(database, app.clock) });
  await app.register(metricsRoutes);
  await app.register(openApiRoutes);
  await app.register(imageRoutes);
  await app.register(chatLineRoutes);
  await app.register(pageRoutes, {});
}
