import type { FastifyBaseLogger } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** What the root logger is: pino, which can say whether a level is written at all. */
export interface RootLogger extends FastifyBaseLogger {
  isLevelEnabled(level: string): boolean;
}

/**
 * A request's logger (`request.log`) that becomes a pino child, with the request id bound,
 * only when it first writes a line. Fastify makes a child per request; pino's child
 * serializes its bindings at once, which cost a tenth of a small answer's time on
 * requests that, at the usual `warn` level, never log anything.
 */
export class RequestLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    readonly parent: RootLogger,
    readonly bindings: Bindings,
  ) {}

  #real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings));
  }

  #write(level: Level, args: unknown[]): void {
    if (!this.parent.isLevelEnabled(level)) return;
    const real = this.#real();
    Reflect.apply(real[level], real, args);
  }

  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.#real().level = level;
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }

  error(...args: unknown[]): void {
    this.#write('error', args);
  }

  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }

  info(...args: unknown[]): void {
    this.#write('info', args);
  }

  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }

  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }
}

/**
 * Fastify's child logger factory: a lazy RequestLogger, unless the route asks for its own
 * level or serializers (then pino's child at once, as Fastify would make it).
 */
export function requestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  if (options.level !== undefined || options.serializers !== undefined || !isRoot(logger)) {
    return logger.child(bindings, options);
  }
  return new RequestLogger(logger, bindings);
}

function isRoot(logger: FastifyBaseLogger): logger is RootLogger {
  return typeof (logger as Partial<RootLogger>).isLevelEnabled === 'function';
}
