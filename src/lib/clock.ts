import { setTimeout as wait } from 'node:timers/promises';

/** Where the service reads the time and waits; tests pass one they can move forward. */
export interface Clock {
  now(): Date;
  /**
   * Resolves after `ms` milliseconds of this clock's time; with a `signal`, rejects as soon as it
   * is aborted (a worker stopping in the middle of a wait).
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Calls `fn` every `ms` milliseconds of this clock's time (heartbeats); answers the stop. */
  every(ms: number, fn: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: async (ms, signal) => void (await wait(ms, undefined, { signal })),
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

/**
 * A background worker's wake-ups (the deliverers, live sync, scheduled backups): `work` runs
 * `ms` of real time after the last run ended (the first after `firstMs`), never two at once,
 * until the answered stop. They are real time, not the app's clock, on purpose: a wake-up only
 * looks, and what is due (a retry, a lease's end, the next backup) the work reads from the app's
 * clock. A test that moves its clock a day on wakes nothing by itself and calls the work (or
 * lets the next wake-up find it due), and a machine that slept wakes once, not once for every
 * period it missed.
 */
export function wakeEvery(ms: number, work: () => Promise<unknown>, firstMs = ms): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const next = (delay: number) => {
    timer = setTimeout(() => {
      void work()
        .catch(() => undefined)
        .finally(() => {
          if (!stopped) next(ms);
        });
    }, delay);
    timer.unref();
  };
  next(firstMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
