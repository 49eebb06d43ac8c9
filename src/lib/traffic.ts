import type { Clock } from '../lib/clock.ts';

/** From this many requests a second on, the service is busy: background work gives way. */
export const BUSY_REQUESTS_PER_SECOND = 100;
/** The rate is read over windows this long of the app's clock. */
const WINDOW_MS = 1000;

/**
 * How many requests a second the service is answering. Every request is counted where it
 * enters the server, before routing (cache/early.ts), and the rate is read over windows of a
 * second of the app's clock. Background work (delivery/deliverer.ts) asks whether the service
 * is busy and then goes at a walking pace, so that visitors keep their speed while a go-live's
 * or a digest's messages go out (docs/decisions.md "Requests come first").
 */
export class Traffic {
  /** Requests that arrived so far. */
  arrived = 0;
  #windowAt: number | null = null;
  #windowArrived = 0;
  #rate = 0;

  constructor(private readonly clock: Clock) {}

  /** Requests a second over the last whole window: 0 until one has passed. */
  rate(): number {
    const now = this.clock.now().getTime();
    if (this.#windowAt === null || now < this.#windowAt) {
      this.#windowAt = now;
      this.#windowArrived = this.arrived;
    } else if (now - this.#windowAt >= WINDOW_MS) {
      this.#rate = ((this.arrived - this.#windowArrived) * 1000) / (now - this.#windowAt);
      this.#windowAt = now;
      this.#windowArrived = this.arrived;
    }
    return this.#rate;
  }

  busy(): boolean {
    return this.rate() >= BUSY_REQUESTS_PER_SECOND;
  }
}
