import { executionAsyncResource } from 'node:async_hooks';

/**
 * The one speed measure in the service that leans on a runtime's internals (docs/architecture.md
 * "Runtime settings, and the one runtime trick"): one object of `process.nextTick`, kept for the
 * life of the process.
 *
 * Every answer goes through `process.nextTick` several times (Node's streams end, finish and
 * destroy through it), and it makes an object literal with computed keys
 * (`{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, callback, args }`). V8 records,
 * weakly, the shapes the object goes through as each key is added; only live tick objects
 * hold them. A full collection at a moment when none is alive (the SQLite service's start runs
 * its migrations and first reads synchronously) clears the record, and from then on every key
 * of every tick is added by a call into V8's runtime, for the life of the process. Seen on
 * Node.js 20 and on Node.js 24: on 24, a service started as the bench starts it spent 11.6% of
 * its CPU under `/healthz` in that call, 1.5% with the object kept; `/healthz` answered
 * 70,000-73,000 a second against 83,000-85,000 (docs/benchmarks.md "stop 86").
 */
let kept: object | undefined;

/**
 * Keeps one tick object from now on; called first by the start (server.ts `startServer`, for
 * `npm start` and `streamer-rating serve`). `executionAsyncResource()` inside a tick's
 * callback is that tick's object (Node's task queue runs each callback in its own async
 * context); no async hook is enabled.
 */
export async function keepNextTickShape(): Promise<void> {
  kept ??= await new Promise<object>((resolve) => process.nextTick(() => resolve(executionAsyncResource())));
}

/** The kept tick object, once the start has kept it (for the test that the start does). */
export function keptTickObject(): object | undefined {
  return kept;
}
