import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config/config.ts';
import { fail } from '../errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Is the service shedding load right now (for answers served before Fastify's hooks)? */
    overloaded(): boolean;
  }
}

/** Samples of the event loop, this far apart. */
export const SAMPLE_MS = 250;
/** Shedding starts after this many samples in a row over the limit (sustained overload only). */
export const SUSTAINED = 2;
const RESOLUTION_MS = 10;
const RETRY_AFTER = 5;

/** One sample: the histogram's mean delay (ns) and count, and how late our own timer fired. */
export interface Sample {
  meanNs: number;
  count: number;
  lateMs: number;
}

/**
 * The event-loop delay of one sample, in milliseconds, always a finite number. A loop
 * blocked for the whole sample records nothing in the histogram (its mean is NaN): then the
 * lateness of the sampling timer itself is the delay, never Infinity (@fastify/under-pressure
 * reads NaN as Infinity and sheds after any single pause, or a busy machine's scheduling gap).
 */
export function delayOf(sample: Sample): number {
  const fromHistogram = sample.meanNs / 1e6 - RESOLUTION_MS;
  const delay = sample.count > 0 && Number.isFinite(fromHistogram) ? fromHistogram : sample.lateMs;
  return Number.isFinite(delay) ? Math.max(0, delay) : 0;
}

/** Samples in a row over the limit, after this one. */
export function streakAfter(streak: number, delayMs: number, maxDelayMs: number): number {
  return maxDelayMs > 0 && delayMs > maxDelayMs ? streak + 1 : 0;
}

/** Reports the event loop's delay (ms) once per sample until the returned function stops it. */
export type LoopDelaySource = (report: (delayMs: number) => void) => () => void;

/** This process's event loop, sampled every SAMPLE_MS. */
export const eventLoopDelay: LoopDelaySource = (report) => {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const sample = { meanNs: histogram.mean, count: histogram.count, lateMs: now - last - SAMPLE_MS };
    last = now;
    histogram.reset();
    report(delayOf(sample));
  }, SAMPLE_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    histogram.disable();
  };
};

/**
 * Load shedding (docs/decisions.md "Overload"): while the event loop has lagged more than
 * MAX_EVENT_LOOP_DELAY_MS for SUSTAINED samples in a row, or the heap is above 90% of
 * Node's limit, a request is answered at once with 503 and Retry-After instead of queueing
 * without bound. One synchronous check per request; the sampling runs on a timer (`loopDelay`,
 * this process's event loop unless a test passes its own).
 */
export const loadShedding = fp(
  async (app: FastifyInstance, opts: { config: Config; loopDelay?: LoopDelaySource }) => {
    const maxDelay = opts.config.maxEventLoopDelayMs;
    const maxHeap = Math.floor(0.9 * getHeapStatistics().heap_size_limit);
    let streak = 0;
    let shedding = false;
    const stop = (opts.loopDelay ?? eventLoopDelay)((delayMs) => {
      streak = streakAfter(streak, delayMs, maxDelay);
      shedding = streak >= SUSTAINED || getHeapStatistics().used_heap_size > maxHeap;
    });
    app.addHook('onClose', async () => stop());

    app.decorate('overloaded', () => shedding);
    // The answers before routing leave the request to the hook below while shedding.
    app.earlyAnswers.hooks.defer = () => shedding;

    const unavailable = () => fail('service_unavailable', { 'retry-after': String(RETRY_AFTER) });
    app.addHook('onRequest', (_request, _reply, done) => {
      if (shedding) done(unavailable());
      else done();
    });
  },
  { name: 'load-shedding' },
);
