import { setTimeout as wait } from 'node:timers/promises';

/** Where the service reads the time and waits; tests pass one they can move forward. */
export interface Clock {
  now(): Date;
  /** Resolves after `ms` milliseconds of this clock's time. */
  sleep(ms: number): Promise<void>;
  /** Calls `fn` every `ms` milliseconds of this clock's time (heartbeats); answers the stop. */
  every(ms: number, fn: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: async (ms) => void (await wait(ms)),
  every: (ms, fn) => {
    const timer = setInterval(fn, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

export const iso = (clock: Clock): string => clock.now().toISOString();

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/**
 * Upkeep every `ms` of the clock (pruning, purging), never two runs at once: a clock moved on by
 * days (a test, a machine that slept) runs it once, not once for every period it passed.
 */
export function upkeep(
  clock: Clock,
  ms: number,
  work: () => Promise<unknown>,
  failed: (err: unknown) => void,
): () => void {
  let running = false;
  return clock.every(ms, () => {
    if (running) return;
    running = true;
    work()
      .catch(failed)
      .finally(() => {
        running = false;
      });
  });
}
