import type { FastifyBaseLogger, FastifyRequest, FastifyServerOptions } from 'fastify';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { redactCredentials, redactUrl } from './redact.ts';

export { redactUrl };

/** An error as the log shows it: pino's shape, its message and stack without credentials. */
function errorSerializer(err: Error): {
  type: string;
  message: string;
  stack: string;
  [key: string]: unknown;
} {
  const shown = pino.stdSerializers.err(err) as ReturnType<typeof pino.stdSerializers.err> | undefined;
  if (shown === undefined || shown === null || typeof shown !== 'object') return shown as never;
  const clean = (v: unknown) => (typeof v === 'string' ? redactCredentials(v) : v);
  return { ...shown, message: clean(shown.message) as string, stack: clean(shown.stack) as string };
}

/**
 * The log's serializers and hooks, whoever makes the logger (the service's start, or Fastify
 * from the options tests pass): requests without OAuth parameters or addresses, errors and
 * messages without credentials.
 */
export const LOG_OPTIONS = {
  serializers: {
    req: (req: FastifyRequest) => ({
      method: req.method,
      url: redactUrl(req.url),
      hostname: req.host,
      // The client by its guest tag as staff see it: addresses are never logged (SECURITY.md 32).
      // (Fastify logs a request with a malformed URL before the request's decorators exist.)
      client: (req.guestTag as string | undefined)?.slice(0, 10),
    }),
    err: errorSerializer,
  },
  hooks: {
    logMethod(this: Logger, args: unknown[], method: (...args: unknown[]) => void): void {
      Reflect.apply(
        method,
        this,
        args.map((a) => (typeof a === 'string' ? redactCredentials(a) : a)),
      );
    },
  },
} satisfies LoggerOptions;

/**
 * The service's one logger: JSON lines on stdout, from the first line of a start (the
 * configuration, the database, the migrations) to the last; the app's Fastify logs through
 * it (`loggerInstance`).
 */
export function serviceLogger(level = 'info', destination?: DestinationStream): Logger {
  return pino({ level, ...LOG_OPTIONS }, destination);
}

/** Levels at which each request is logged (Fastify writes those lines at info). */
const REQUEST_LINE_LEVELS = new Set(['info', 'debug', 'trace']);

/** The app's logger as its caller gives it: options (tests) or the start's own logger. */
export interface AppLoggerSource {
  logger?: FastifyServerOptions['logger'];
  loggerInstance?: FastifyBaseLogger;
}

/**
 * The app's logger options for Fastify, and whether it writes request lines: they are opt-in
 * (LOG_REQUESTS), and at the default settings the answers written before routing are taken.
 */
export function appLogging(
  source: AppLoggerSource,
  config: { logLevel: string; logRequests: boolean },
): {
  options: Pick<FastifyServerOptions, 'logger' | 'loggerInstance'>;
  requestLines: boolean;
} {
  const logger = source.logger ?? { level: config.logLevel };
  const level =
    source.loggerInstance?.level ??
    ((logger && typeof logger === 'object' && 'level' in logger && logger.level) || config.logLevel);
  const requestLines = config.logRequests && REQUEST_LINE_LEVELS.has(String(level));
  return {
    options: source.loggerInstance
      ? { loggerInstance: source.loggerInstance }
      : { logger: logger && typeof logger === 'object' ? { ...logger, ...LOG_OPTIONS } : logger },
    requestLines,
  };
}
