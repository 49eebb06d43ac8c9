import type { FastifyBaseLogger } from 'fastify';

/**
 * The log of something a timer retries (a queue read every second): one warning with the
 * error when it starts failing, nothing while it keeps failing, one line when it works again
 * with how many tries failed. A stack trace a second while the database is down hides
 * everything else in the log and says nothing new (issue 30, item 13).
 */
export class OutageLog {
  #failures = 0;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly what: string,
  ) {}

  /** A try failed: logged only when the one before it worked. */
  failed(err: unknown): void {
    if (this.#failures++ === 0) this.log.warn({ err }, `${this.what} failed; said again only when it works`);
    else this.log.debug({ err }, `${this.what} failed again`);
  }

  /** A try worked: logged only when the ones before it failed. */
  worked(): void {
    if (this.#failures === 0) return;
    this.log.info(
      { failures: this.#failures },
      `${this.what} works again after ${this.#failures} failed tries`,
    );
    this.#failures = 0;
  }
}
