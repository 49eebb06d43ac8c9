import { describe, expect, it, vi } from 'vitest';
import { delayOf, eventLoopDelay, SAMPLE_MS, streakAfter, SUSTAINED } from '../src/plugins/load-shedding.ts';

// The judgement only; nothing here is timed (the soak's saturation scenario loads the service).
describe('load shedding', () => {
  it('reads a sample without histogram entries (NaN mean) as its timer lateness, never Infinity', () => {
    expect(delayOf({ meanNs: Number.NaN, count: 0, lateMs: 40 })).toBe(40);
    expect(delayOf({ meanNs: Number.NaN, count: 0, lateMs: Number.NaN })).toBe(0);
    expect(delayOf({ meanNs: Infinity, count: 3, lateMs: 5 })).toBe(5);
    expect(delayOf({ meanNs: 35e6, count: 20, lateMs: 900 })).toBe(25);
    expect(delayOf({ meanNs: 2e6, count: 20, lateMs: -3 })).toBe(0);
  });

  it('sheds only after the limit is passed in consecutive samples, and never when turned off', () => {
    let streak = 0;
    for (const delay of [1500, 10, 1500, 10]) streak = streakAfter(streak, delay, 1000);
    expect(streak).toBe(0);
    for (let i = 0; i < SUSTAINED; i++) streak = streakAfter(streak, 1500, 1000);
    expect(streak).toBeGreaterThanOrEqual(SUSTAINED);
    expect(streakAfter(5, 1e9, 0)).toBe(0);
  });

  it("this process's sampler reports every SAMPLE_MS while awake, nothing while asleep or stopped", () => {
    vi.useFakeTimers();
    try {
      const reports: number[] = [];
      const monitor = eventLoopDelay((delay) => reports.push(delay));
      vi.advanceTimersByTime(4 * SAMPLE_MS);
      expect(reports).toHaveLength(0);
      monitor.wake();
      monitor.wake();
      vi.advanceTimersByTime(4 * SAMPLE_MS);
      expect(reports).toHaveLength(4);
      monitor.sleep();
      vi.advanceTimersByTime(4 * SAMPLE_MS);
      expect(reports).toHaveLength(4);
      monitor.wake();
      vi.advanceTimersByTime(SAMPLE_MS);
      expect(reports).toHaveLength(5);
      monitor.stop();
      vi.advanceTimersByTime(4 * SAMPLE_MS);
      expect(reports).toHaveLength(5);
    } finally {
      vi.useRealTimers();
    }
  });
});
