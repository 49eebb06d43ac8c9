import type * as Http from 'node:http';
import { createRequire } from 'node:module';

/**
 * node:http, loaded the way the bundle's CommonJS dependencies (Fastify, light-my-request) load
 * it: with `require`. An ES import of it would make Node.js 24 build the module's ES view by
 * reading every export, and three of them (`WebSocket`, `CloseEvent`, `MessageEvent`) are
 * getters that load undici, Node's fetch and WebSocket client, which node:http otherwise loads
 * only when asked (nodejs/node#59686). The service never uses that client (its calls out go
 * through lib/outbound.ts), and loading it cost 12% of the cold start and 4-6 MiB of every
 * process's resident memory (docs/benchmarks.md "Stop 74"). The one module of the service that
 * takes node:http's values; the others take its types with `import type` (eslint.config.js).
 */
export const http = createRequire(import.meta.url)('node:http') as typeof Http;
