import type { Clock } from './clock.ts';

/** From this many requests a second on, the service is busy: background work gives way. */
export const BUSY_REQUESTS_PER_SECOND = 100;

/**
 * How many requests a second the service is answering. Every request is counted where it
 * enters the server, before routing (cache/early.ts), and every second of the app's clock the
 * count of that second becomes the rate. Background work (delivery/deliverer.ts) asks whether
 * the service is busy and then goes at a walking pace, so that visitors keep their speed while
 * a go-live's or a digest's messages go out (docs/decisions.md "Requests come first").
 */
export class Traffic {
  /** Requests that arrived so far. */
  arrived = 0;
  #counted = 0;
  #rate = 0;
  readonly #stop: () => void;

  constructor(clock: Clock) {
    this.#stop = clock.every(1000, () => {
      this.#rate = this.arrived - this.#counted;
      this.#counted = this.arrived;
    });
  }

  busy(): boolean {
    return this.#rate >= BUSY_REQUESTS_PER_SECOND;
  }

  stop(): void {
    this.#stop();
  }
}
