import { readdirSync, readFileSync } from 'node:fs';
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

/**
 * The event loop's delay (ms), reported once per sample while awake: `wake` starts the
 * sampling, `sleep` stops it (an idle service's loop then sleeps too), `stop` ends it for good.
 */
export interface LoopDelayMonitor {
  wake(): void;
  sleep(): void;
  stop(): void;
}
export type LoopDelaySource = (report: (delayMs: number) => void) => LoopDelayMonitor;

/** Samples in a row with no request after which the sampling sleeps (until the next request). */
export const IDLE_SAMPLES = 4;

/** This process's event loop, sampled every SAMPLE_MS while awake. */
export const eventLoopDelay: LoopDelaySource = (report) => {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  let timer: NodeJS.Timeout | null = null;
  let last = 0;
  const sleep = () => {
    if (timer) clearInterval(timer);
    timer = null;
    histogram.disable();
  };
  return {
    wake: () => {
      if (timer) return;
      histogram.reset();
      histogram.enable();
      last = performance.now();
      timer = setInterval(() => {
        const now = performance.now();
        const sample = { meanNs: histogram.mean, count: histogram.count, lateMs: now - last - SAMPLE_MS };
        last = now;
        histogram.reset();
        report(delayOf(sample));
      }, SAMPLE_MS);
      timer.unref();
    },
    sleep,
    stop: sleep,
  };
};

/** A process's open file descriptors and the soft limit on them (RLIMIT_NOFILE). */
export interface Descriptors {
  open: number;
  limit: number;
}

/** The descriptors now, or null where the system does not say (no /proc, no limit). */
export type DescriptorSource = () => Descriptors | null;

/** This process's, from /proc: the soft limit of /proc/self/limits, the entries of /proc/self/fd. */
export const procDescriptors: DescriptorSource = () => {
  try {
    const limit = /^Max open files\s+(\d+)\s/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
    if (limit === undefined) return null;
    // (Reading the folder holds one descriptor of its own.)
    return { open: readdirSync('/proc/self/fd').length - 1, limit: Number(limit) };
  } catch {
    return null;
  }
};

/** Descriptors are counted this often (a read of /proc/self/fd), never per request. */
export const DESCRIPTORS_SAMPLE_MS = 1_000;
/** The log says the descriptors are running out at most this often. */
const DESCRIPTORS_LOG_MS = 60_000;

/**
 * Whether the descriptors are running out: fewer than a tenth of the limit (at least 16)
 * left, kept for what the requests already taken, the database and the log still need.
 */
export const descriptorsShort = ({ open, limit }: Descriptors): boolean =>
  open >= limit - Math.max(16, Math.ceil(limit / 10));

/**
 * Load shedding (docs/decisions.md "Overload"): while the event loop has lagged more than
 * MAX_EVENT_LOOP_DELAY_MS for SUSTAINED samples in a row, or the heap is above 90% of
 * Node's limit, or the open file descriptors near the process's limit (issue 45 item 21), a
 * request is answered at once with 503 and Retry-After instead of queueing without bound (or
 * hanging for want of a descriptor), and its connection is closed. One synchronous check per
 * request; the sampling runs on timers (`loopDelay`, this process's event loop unless a test
 * passes its own, only while requests come; the descriptors every DESCRIPTORS_SAMPLE_MS of the
 * app's clock, and the log says it once a minute).
 */
export const loadShedding = fp(
  async (
    app: FastifyInstance,
    opts: { config: Config; loopDelay?: LoopDelaySource; descriptors?: DescriptorSource },
  ) => {
    const maxDelay = opts.config.maxEventLoopDelayMs;
    const maxHeap = Math.floor(0.9 * getHeapStatistics().heap_size_limit);
    let streak = 0;
    let loaded = false;
    let short = false;
    let shedding = false;
    // The loop is sampled while requests come: after IDLE_SAMPLES samples without one (and not
    // overloaded) the sampling sleeps, and the next request wakes it.
    let awake = false;
    let asked = false;
    let quiet = 0;
    const monitor = (opts.loopDelay ?? eventLoopDelay)((delayMs) => {
      streak = streakAfter(streak, delayMs, maxDelay);
      loaded = streak >= SUSTAINED || getHeapStatistics().used_heap_size > maxHeap;
      shedding = loaded || short;
      quiet = asked ? 0 : quiet + 1;
      asked = false;
      if (quiet < IDLE_SAMPLES || loaded) return;
      awake = false;
      streak = 0;
      monitor.sleep();
    });
    app.addHook('onClose', async () => monitor.stop());
    /** Whether to shed this request (each request asked wakes the sampling). */
    const shed = (): boolean => {
      asked = true;
      if (!awake) {
        awake = true;
        quiet = 0;
        monitor.wake();
      }
      return shedding;
    };

    const descriptors = opts.descriptors ?? procDescriptors;
    let loggedAt = Number.NEGATIVE_INFINITY;
    // On the app's clock (the system's: a timer that keeps no process alive).
    const stopCounting = app.clock.every(DESCRIPTORS_SAMPLE_MS, () => {
      const now = descriptors();
      short = now !== null && descriptorsShort(now);
      shedding = loaded || short;
      if (!short || now === null) return;
      const at = app.clock.now().getTime();
      if (at - loggedAt < DESCRIPTORS_LOG_MS) return;
      loggedAt = at;
      app.log.error(
        { open_files: now.open, limit: now.limit },
        'out of file descriptors: answering 503 until some close; raise LimitNOFILE (docs/deploy.md)',
      );
    });
    app.addHook('onClose', async () => stopCounting());

    app.decorate('overloaded', () => shedding);
    // The answers before routing leave the request to the hook below while shedding.
    app.earlyAnswers.hooks.defer = shed;

    const unavailable = () => fail('service_unavailable', { 'retry-after': String(RETRY_AFTER) });
    app.addHook('onRequest', (_request, reply, done) => {
      if (!shed()) return done();
      // Each connection holds a descriptor: a refused one is not kept alive.
      if (short) reply.header('connection', 'close');
      done(unavailable());
    });
  },
  { name: 'load-shedding' },
);
