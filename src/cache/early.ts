import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import { http } from '../lib/node-http.ts';
import type { Traffic } from '../lib/traffic.ts';
import type { Answer } from './answer.ts';
import { formOf, ready, type SecurityHeaders, writeAnswer } from './sender.ts';

/**
 * One route answered before routing: `find` gives the kept answer for this GET, or undefined
 * to leave the request to Fastify (nothing kept, or the request is one the route must see).
 */
export interface EarlyRoute {
  /** The route's pattern, as the metrics name it (`/api/streamers`, `/s/:ref`). */
  route: string;
  find(req: IncomingMessage, url: string): Answer | undefined;
}

/** What the early answers report to, set by the plugins that care (metrics, load shedding). */
export interface EarlyHooks {
  /** True while requests must go to Fastify (load shedding answers them with its 503). */
  defer?: () => boolean;
  /** Counts an answer given here (metrics, when METRICS_TOKEN is set). */
  observe?: (route: string, method: string, status: number, seconds: number) => void;
}

/**
 * The answers written before Fastify routes a request: the most asked-for GETs whose answer is
 * kept in the answer cache (answers.ts): the public list to a visitor without a cookie,
 * `/healthz` while the database answered lately, drawn cards and badges, rendered pages.
 * Features register their routes here from their own folder, next to the route each one
 * mirrors; an answer is written by the same sender as the route's (sender.ts), so it is the
 * same header for header and byte for byte, without Fastify's request, hooks and reply, which
 * cost more than such an answer itself. Anything a registered route cannot answer from memory
 * right now goes to Fastify as usual. Enabled only where nothing else could differ: request
 * lines are not logged one by one and no origin may call with CORS (app.ts).
 */
export class EarlyAnswers {
  readonly #exact = new Map<string, EarlyRoute>();
  readonly #prefixed: { prefix: string; route: EarlyRoute }[] = [];
  #security: SecurityHeaders | null = null;
  readonly hooks: EarlyHooks = {};
  /** Answers written here so far (for operators and tests). */
  served = 0;

  /** A route answered early for exactly this path (no query). */
  exact(path: string, route: EarlyRoute): void {
    this.#exact.set(path, route);
  }

  /** A route answered early for paths that start with `prefix`; `find` tells which are its own. */
  prefixed(prefix: string, route: EarlyRoute): void {
    this.#prefixed.push({ prefix, route });
  }

  /** From now on (the app is built and listening). */
  enable(security: SecurityHeaders): void {
    this.#security = security;
  }

  /** From now on Fastify answers everything (the app is closing). */
  disable(): void {
    this.#security = null;
  }

  /** Answers the request and returns true, or returns false and leaves it to Fastify. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const security = this.#security;
    if (security === null || req.method !== 'GET' || this.hooks.defer?.()) return false;
    const url = req.url ?? '';
    const started = this.hooks.observe ? performance.now() : 0;
    let route = this.#exact.get(url);
    let answer = route?.find(req, url);
    if (!route) {
      for (const p of this.#prefixed) {
        if (!url.startsWith(p.prefix)) continue;
        answer = p.route.find(req, url);
        if (answer) {
          route = p.route;
          break;
        }
      }
    }
    if (!route || !answer) return false;
    // A compressed form not made yet is made by the route (sender.ts `sendAnswer`).
    const form = formOf(answer, req.headers);
    if (!ready(answer, form)) return false;
    const status = writeAnswer(res, answer, form, security);
    this.served++;
    this.hooks.observe?.(route.route, 'GET', status, (performance.now() - started) / 1000);
    return true;
  }
}

/** The server settings among Fastify's options (with its defaults filled in). */
interface ServerSettings {
  http?: ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  maxRequestsPerSocket?: number | null;
}

/**
 * Fastify's `serverFactory`: Node's HTTP server with the settings Fastify gives its own
 * (lib/server.js), whose requests are counted (lib/traffic.ts) and meet the early answers first.
 */
export function serverWithEarlyAnswers(early: EarlyAnswers, traffic: Traffic) {
  return (handler: (req: IncomingMessage, res: ServerResponse) => void, options: ServerSettings): Server => {
    const server = http.createServer(options.http ?? {}, (req, res) => {
      traffic.arrived++;
      if (!early.handle(req, res)) handler(req, res);
    });
    server.keepAliveTimeout = options.keepAliveTimeout ?? 72_000;
    server.requestTimeout = options.requestTimeout ?? 0;
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}
