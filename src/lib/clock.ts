import { setTimeout as wait } from 'node:timers/promises';

/** Where the service reads the time and waits; tests pass one they can move forward. */
export interface Clock {
  now(): Date;
  /** Resolves after `ms` milliseconds of this clock's time. */
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: async (ms) => void (await wait(ms)),
};

export const iso = (clock: Clock): string => clock.now().toISOString();

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
