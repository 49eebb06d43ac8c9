import type { FastifyBaseLogger } from 'fastify';
import type { AnswerCache } from './cache/answers.ts';
import type { Config } from './config/config.ts';
import type { DbContext } from './db/context.ts';
import type { Db } from './db/schema.ts';
import type { Clock } from './lib/clock.ts';

/** Where an operation writes what it wants logged: the app's log, or a request's (with its id). */
export type Logger = FastifyBaseLogger;

/**
 * What operations are given (issue 40, "A context object"): the database, the clock, the
 * settings and the few keys and caches they use, made once by app.ts (`app.ctx`). An operation
 * takes this, never the Fastify instance, so it runs the same from a route, the CLI or a test.
 */
export interface AppContext {
  /** The open database and this process's state for it; its writes carry the event log. */
  readonly database: DbContext;
  /** `database.db`: what queries run on. */
  readonly db: Db;
  readonly clock: Clock;
  readonly config: Config;
  /** The key guests' challenges are signed with (guests/challenge.ts). */
  readonly challengeKey: string;
  /** The key a guest's own-comments cookie is signed with (comments/own-cookie.ts). */
  readonly ownCommentsKey: string;
  /** The answers kept in memory (cache/answers.ts). */
  readonly answers: AnswerCache;
  /** The app's log, for what happens outside a request. */
  readonly log: Logger;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What the routes hand their operations (src/context.ts). */
    ctx: AppContext;
  }
}
