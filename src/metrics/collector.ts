import type pg from 'pg';
import type { DbFailures } from '../db/failures.ts';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Provider } from '../shared/rules.ts';
import { VERSION } from '../lib/version.ts';

/** Upper bounds of the request-duration buckets, in seconds. */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const BUCKETS = DURATION_BUCKETS.length;

/** A deliverer of the outbox (delivery/deliverer.ts), as the metrics read it. */
interface Deliverer {
  backlog(): Promise<number>;
  readonly results: Readonly<Record<string, number>>;
}

/** The route label of requests that matched no route (404s of unknown paths). */
export const UNMATCHED = '(unmatched)';

/** One route's requests since start: durations by bucket, and counts by method and status. */
class RouteSeries {
  /** Observations per bucket (not cumulative); past the last bound only `count` grows. */
  readonly buckets = new Float64Array(DURATION_BUCKETS.length);
  sum = 0;
  count = 0;
  readonly byMethod = new Map<string, Map<number, number>>();
}

/** prom-client's own store of a histogram's series (lib/histogram.js), filled at scrape time. */
interface HistogramStore {
  hashMap: Record<
    string,
    { labels: object; bucketValues: Record<number, number>; sum: number; count: number }
  >;
}

/**
 * prom-client's default gauges named `_total` under names `promtool check metrics` accepts
 * (`_total` is for counters): `nodejs_active_handles_all` and the like, with the same value,
 * read from the original gauge when scraped. Their by-type siblings (`nodejs_active_handles`)
 * stay as they are.
 */
export const RENAMED_DEFAULTS = {
  nodejs_active_handles_total: 'nodejs_active_handles_all',
  nodejs_active_requests_total: 'nodejs_active_requests_all',
  nodejs_active_resources_total: 'nodejs_active_resources_all',
} as const;

function renameTotalGauges(registry: Registry): void {
  for (const [from, to] of Object.entries(RENAMED_DEFAULTS)) {
    const original = registry.getSingleMetric(from);
    if (!original) continue;
    registry.removeSingleMetric(from);
    new Gauge({
      name: to,
      help: `${(original as unknown as { help: string }).help} (prom-client's ${from})`,
      registers: [registry],
      async collect() {
        this.set((await original.get()).values[0]?.value ?? 0);
      },
    });
  }
}

/**
 * The service's metrics (DECISIONS.md "Operating"), in prom-client's registry. A request
 * costs a few plain additions (`observe`): prom-client's own `inc` and `observe` validate
 * and hash their labels on every call, about as long as the service takes for a small
 * answer, so the request series are kept here and handed to prom-client when scraped.
 * Label values come from route patterns (bounded), never from URLs.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly #routes = new Map<string, RouteSeries>();
  readonly #checks = new Counter({
    name: 'live_sync_checks_total',
    help: 'Calls to a provider live-status API (one per batch of streamers), by result: ok or the kind of failure',
    labelNames: ['provider', 'result'] as const,
    registers: [this.registry],
  });

  constructor(pool?: pg.Pool, failures?: DbFailures) {
    const routes = this.#routes;
    new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [route, s] of routes) {
          for (const [method, statuses] of s.byMethod) {
            for (const [status, n] of statuses) this.inc({ method, route, status: String(status) }, n);
          }
        }
      },
    });
    new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from receiving a request to sending its answer, by route pattern',
      labelNames: ['route'] as const,
      buckets: DURATION_BUCKETS,
      registers: [this.registry],
      collect() {
        const store: HistogramStore['hashMap'] = {};
        for (const [route, s] of routes) {
          const bucketValues: Record<number, number> = {};
          DURATION_BUCKETS.forEach((bound, i) => (bucketValues[bound] = s.buckets[i] ?? 0));
          store[`route:${route}`] = { labels: { route }, bucketValues, sum: s.sum, count: s.count };
        }
        (this as unknown as HistogramStore).hashMap = store;
      },
    });
    if (pool) {
      new Gauge({
        name: 'db_pool_waiting',
        help: 'Queries waiting for a free PostgreSQL connection of this instance',
        registers: [this.registry],
        collect() {
          this.set(pool.waitingCount);
        },
      });
    }
    if (failures) {
      new Counter({
        name: 'db_errors_total',
        help: 'Requests that failed on the database, by kind: disk_full (writes refused), unavailable, or conflict (a deadlock or serialization failure, rolled back)',
        labelNames: ['kind'] as const,
        registers: [this.registry],
        collect() {
          this.reset();
          for (const [kind, n] of Object.entries(failures.counts)) this.inc({ kind }, n);
        },
      });
    }
    // What runs: the version as a label, the value 1 (a Prometheus convention; alert or join on it).
    new Gauge({
      name: 'build_info',
      help: "This instance's version (package.json); the value is always 1",
      labelNames: ['version'] as const,
      registers: [this.registry],
    }).set({ version: VERSION }, 1);
    // process_resident_memory_bytes, nodejs_eventloop_lag_seconds, heap, GC, handles...
    collectDefaultMetrics({ register: this.registry });
    renameTotalGauges(this.registry);
  }

  /**
   * `backup_last_success_timestamp_seconds`: when the newest complete copy in the backup
   * directory was made (0 while there is none), read when scraped, so every instance on the
   * file reports the copies whichever instance made them (backup/plugin.ts).
   */
  watchBackups(newest: () => Promise<Date | null>): void {
    new Gauge({
      name: 'backup_last_success_timestamp_seconds',
      help: 'When the newest complete scheduled backup was made (Unix time; 0 before the first)',
      registers: [this.registry],
      async collect() {
        this.set(((await newest())?.getTime() ?? 0) / 1000);
      },
    });
  }

  /** `event_streams_open`: the open `GET /api/events` streams of this instance, read when scraped. */
  watchStreams(open: () => number): void {
    new Gauge({
      name: 'event_streams_open',
      help: 'Open GET /api/events streams of this instance',
      registers: [this.registry],
      collect() {
        this.set(open());
      },
    });
  }

  readonly #deliverers = new Map<string, { deliverer: Deliverer; last: number }>();

  /**
   * `deliverer_queue_depth{deliverer}`: what a deliverer of the event log has still to send (its
   * events past its cursor and its own queue), as read from the database at the scrape before:
   * a scrape never waits for the database (a full pool would make it time out), it starts the
   * next read. Every instance reports the same figure, whichever holds the lease. And
   * `deliveries_total{channel,result}`: this instance's tries, by how each ended (a message
   * given up was said in the log only).
   */
  watchDeliverer(name: string, deliverer: Deliverer): void {
    if (this.#deliverers.size === 0) {
      const deliverers = this.#deliverers;
      new Gauge({
        name: 'deliverer_queue_depth',
        help: 'Events and messages a deliverer (Discord) has still to send, as of the scrape before',
        labelNames: ['deliverer'] as const,
        registers: [this.registry],
        collect() {
          for (const [name, d] of deliverers) {
            this.set({ deliverer: name }, d.last);
            void d.deliverer.backlog().then(
              (n) => (d.last = n),
              () => undefined,
            );
          }
        },
      });
      new Counter({
        name: 'deliveries_total',
        help: "Tries to send a deliverer's messages (discord, push, mail), by result: sent, retried, waited (asked to), failed (given up or refused), disabled (its receiver gone or off), unknown (may have arrived), skipped, error",
        labelNames: ['channel', 'result'] as const,
        registers: [this.registry],
        collect() {
          this.reset();
          for (const [channel, { deliverer }] of deliverers)
            for (const [result, n] of Object.entries(deliverer.results)) this.inc({ channel, result }, n);
        },
      });
    }
    this.#deliverers.set(name, { deliverer, last: 0 });
  }

  /** One answered request: its route pattern (or UNMATCHED), method, status and duration. */
  observe(route: string, method: string, status: number, seconds: number): void {
    let s = this.#routes.get(route);
    if (s === undefined) this.#routes.set(route, (s = new RouteSeries()));
    s.count++;
    s.sum += seconds;
    let i = 0;
    while (i < BUCKETS && seconds > (DURATION_BUCKETS[i] ?? Infinity)) i++;
    if (i < BUCKETS) s.buckets[i] = (s.buckets[i] ?? 0) + 1;
    let statuses = s.byMethod.get(method);
    if (statuses === undefined) {
      statuses = new Map<number, number>();
      s.byMethod.set(method, statuses);
    }
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }

  /** One call to a provider's live-status API. */
  liveSyncCheck(provider: Provider, result: string): void {
    this.#checks.inc({ provider, result });
  }

  /** The Prometheus text exposition. */
  async text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
