import { executionAsyncResource } from 'node:async_hooks';

/** The object of one `process.nextTick`, kept for the life of the process (see below). */
let kept: object | undefined;

/**
 * Keeps one of the objects `process.nextTick` makes alive for good, so that V8 never forgets
 * their shape. Called first thing by the service's start (server.ts `startServer`: `npm start`
 * and `streamer-rating serve`).
 *
 * Every answer goes through `process.nextTick` several times (Node's streams end, finish and
 * destroy through it), and it makes an object literal with computed keys
 * (`{ [async_id_symbol]: ..., [trigger_async_id_symbol]: ..., callback, args }`). V8 records,
 * weakly, the shapes ("maps") the object goes through as each key is added, and nothing else
 * holds them but the live objects. On Node.js 20 (V8 11.3), a full garbage collection at a
 * moment when none is alive clears the record, the next call finds new shapes, and V8 marks
 * the keys "megamorphic" for good: from then on each key is added by a call into V8's runtime,
 * on every `nextTick` of every answer. The SQLite service's start does it every time (its
 * migrations and first reads run synchronously, with few ticks between them): `/healthz` ran at
 * 0.84x of a bare Fastify, 0.98x with the shape kept (docs/decisions.md "The small answers: a
 * cleared record of nextTick"). An object held here holds its shape, and the shapes before it.
 * Node.js 24's V8 was not seen doing this.
 *
 * `executionAsyncResource()` inside a tick's callback is that tick's object (Node's task
 * queue runs each callback in its own async context); no async hook is needed.
 */
export async function keepNextTickShape(): Promise<void> {
  kept ??= await new Promise<object>((resolve) => process.nextTick(() => resolve(executionAsyncResource())));
}
