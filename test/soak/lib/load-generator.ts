/**
 * The load generator of the saturation scenario, in its own process so that it does not share
 * an event loop (or a CPU's attention) with the scenario's checks:
 * `node --import tsx test/soak/lib/load-generator.ts '<json options>'` prints one JSON line.
 */
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  connections: number;
  seconds: number;
  method: 'GET' | 'POST';
  body?: string;
  /** autocannon's per-request time limit (s); a request past it counts as a timeout. */
  timeoutSeconds: number;
}

export interface LoadResult {
  requests: number;
  statuses: Record<string, number>;
  /** 503 and 429 answers without a Retry-After header. */
  withoutRetryAfter: number;
  errors: number;
  timeouts: number;
  latencyMaxMs: number;
  latencyP99Ms: number;
}

const o = JSON.parse(process.argv[2] ?? '{}') as LoadOptions;
const statuses: Record<string, number> = {};
let withoutRetryAfter = 0;
const result = await autocannon({
  url: o.url,
  connections: o.connections,
  duration: o.seconds,
  timeout: o.timeoutSeconds,
  requests: [
    {
      method: o.method,
      ...(o.body ? { body: o.body, headers: { 'content-type': 'application/json' } } : {}),
      onResponse: (status, _body, _context, headers) => {
        statuses[status] = (statuses[status] ?? 0) + 1;
        if ((status === 503 || status === 429) && !headers?.['retry-after']) withoutRetryAfter++;
      },
    },
  ],
});
const out: LoadResult = {
  requests: result.requests.total,
  statuses,
  withoutRetryAfter,
  errors: result.errors,
  timeouts: result.timeouts,
  latencyMaxMs: result.latency.max,
  latencyP99Ms: result.latency.p99,
};
console.log(JSON.stringify(out));
