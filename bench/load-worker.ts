/**
 * The load generator, run as its own process (forked by load.ts) so that it never shares a
 * core's event loop with the server it measures. It receives one LoadRequest over IPC, runs
 * autocannon and answers with a LoadSummary.
 */
import autocannon from 'autocannon';
import type { LoadRequest, LoadSummary } from './protocol.ts';

function statusCounts(result: autocannon.Result): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [status, stat] of Object.entries(result.statusCodeStats ?? {})) {
    counts[status] = stat.count ?? 0;
  }
  return counts;
}

async function run(request: LoadRequest): Promise<LoadSummary> {
  const options = {
    url: request.url,
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
    ...(request.paths === undefined ? {} : { requests: request.paths.map((path) => ({ path })) }),
    connections: request.connections,
    timeout: request.timeoutSeconds,
    duration: request.seconds,
  };
  const result = await autocannon(options);
  return {
    duration: result.duration,
    statusCounts: statusCounts(result),
    errors: result.errors,
    timeouts: result.timeouts,
    latency: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    bytesPerSecond: result.throughput.average,
  };
}

process.once('message', (message) => {
  run(message as LoadRequest).then(
    (summary) => process.send?.({ summary }, () => process.exit(0)),
    (err: unknown) =>
      process.send?.({ error: err instanceof Error ? err.message : String(err) }, () => process.exit(1)),
  );
});
