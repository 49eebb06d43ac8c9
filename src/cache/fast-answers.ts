import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import type { HealthCheck } from '../health/check.ts';
import type { ReadyImages } from '../images/ready.ts';
import type { Metrics } from '../metrics/collector.ts';
import type { Rendered, RenderCache } from './rendered.ts';
import { type Answer, answerFor, JSON_TYPE, RENDERED_HEADERS } from './send.ts';

/** What the fast answers read, known once the app is built. */
export interface FastSources {
  /** The current content version (db/changes.ts). */
  version: () => number;
  renderCache: RenderCache;
  health: HealthCheck;
  /** The resource security headers (plugins/security-headers.ts). */
  securityHeaders: Record<string, string>;
  overloaded: () => boolean;
  /** Share cards and badges the route has drawn for the current content (images/ready.ts). */
  images: ReadyImages;
  /** The page's addresses from their current rendering (pages/first-view.ts), or false. */
  pages: (req: IncomingMessage, res: ServerResponse, version: number) => number | false;
  /** Counts the answers given here too, when METRICS_TOKEN is set. */
  metrics: Metrics | null;
}

const HEALTHY = Buffer.from('{"ok":true}');

/**
 * The answers asked for most, served from memory before Fastify routes the request: the
 * public streamer list to a visitor without a cookie (every page load of every visitor),
 * /healthz while the database answered within the last 100 ms (every load balancer, every
 * few seconds), and share cards and badges already drawn for the current content (every
 * panel and every page that shows a badge), and the home and streamer pages already rendered
 * for the current content (pages/first-view.ts). Each answer is the same, header for header and byte for byte, as the route's
 * (test/hot-paths.test.ts compares them); Fastify's request object, hooks and reply cost
 * more than such an answer itself. Anything else, or anything these cannot answer from
 * memory right now (a stale or missing rendering, an unchecked database, overload, request
 * logging at info, CORS_ORIGINS, HEAD, a query, a cookie) goes to Fastify as usual.
 */
export class FastAnswers {
  #sources: FastSources | null = null;
  #healthHeaders: Record<string, string> | null = null;
  #headersOf: Rendered<unknown> | null = null;
  readonly #headers = new Map<string, Record<string, string>>();
  /** Answers served here so far (for operators and tests). */
  served = 0;

  /** From now on (the app is built and its plugins registered). */
  enable(sources: FastSources): void {
    this.#sources = sources;
  }

  /** From now on Fastify answers everything (the app is closing). */
  disable(): void {
    this.#sources = null;
  }

  /** Answers the request and returns true, or returns false and leaves it to Fastify. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const sources = this.#sources;
    if (sources === null || req.method !== 'GET' || sources.overloaded()) return false;
    const started = sources.metrics === null ? 0 : performance.now();
    let route: '/api/streamers' | '/healthz' | '/s/:id/card.png' | '/badge/:file' | '/' | '/s/:ref';
    let status: number | false;
    if (req.url === '/api/streamers') {
      if (req.headers.cookie !== undefined) return false;
      route = req.url;
      status = this.#list(sources, req, res);
    } else if (req.url === '/healthz') {
      route = req.url;
      status = this.#health(sources, res);
    } else if (req.url?.startsWith('/badge/') || req.url?.endsWith('/card.png')) {
      route = req.url.startsWith('/badge/') ? '/badge/:file' : '/s/:id/card.png';
      status = sources.images.answer(req, res, sources.version());
      if (status !== false) this.served++;
    } else if (req.url === '/' || req.url?.startsWith('/s/')) {
      route = req.url === '/' ? '/' : '/s/:ref';
      status = sources.pages(req, res, sources.version());
      if (status !== false) this.served++;
    } else return false;
    if (status === false) return false;
    sources.metrics?.observe(route, 'GET', status, (performance.now() - started) / 1000);
    return true;
  }

  /** The status answered, or false when Fastify must answer. */
  #list(sources: FastSources, req: IncomingMessage, res: ServerResponse): number | false {
    const list = sources.renderCache.peek('streamers:public', sources.version());
    if (!list) return false;
    const answer = answerFor(list, req.headers['if-none-match'], req.headers['accept-encoding']);
    res.writeHead(answer.status, this.#listHeaders(sources, list, answer));
    res.end(answer.body ?? undefined);
    this.served++;
    return answer.status;
  }

  /** The list's header objects, built once per rendering and kind of answer. */
  #listHeaders(sources: FastSources, list: Rendered<unknown>, answer: Answer): Record<string, string> {
    const kind = answer.status === 304 ? 'not-modified' : (answer.encoding ?? 'identity');
    if (this.#headersOf !== list) {
      this.#headersOf = list;
      this.#headers.clear();
    }
    let headers = this.#headers.get(kind);
    if (!headers) {
      headers = { ...sources.securityHeaders, ...RENDERED_HEADERS, etag: list.etag, vary: 'Accept-Encoding' };
      if (answer.status !== 304) Object.assign(headers, JSON_TYPE);
      if (answer.encoding) headers['content-encoding'] = answer.encoding;
      this.#headers.set(kind, headers);
    }
    // The br bytes can be swapped for better ones (cache/rendered.ts): the length is read each time.
    if (answer.body) headers['content-length'] = String(answer.body.length);
    return headers;
  }

  #health(sources: FastSources, res: ServerResponse): number | false {
    if (sources.health() !== undefined) return false;
    this.#healthHeaders ??= {
      ...sources.securityHeaders,
      ...JSON_TYPE,
      'content-length': String(HEALTHY.length),
    };
    res.writeHead(200, this.#healthHeaders);
    res.end(HEALTHY);
    this.served++;
    return 200;
  }
}

/** The server settings among Fastify's options (with its defaults filled in). */
interface ServerSettings {
  http?: ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number | null;
}

/**
 * Fastify's `serverFactory`: Node's HTTP server with the settings Fastify gives its own
 * (lib/server.js), whose requests meet the fast answers first.
 */
export function serverWithFastAnswers(fast: FastAnswers) {
  return (handler: (req: IncomingMessage, res: ServerResponse) => void, options: ServerSettings): Server => {
    const server = createServer(options.http ?? {}, (req, res) => {
      if (!fast.handle(req, res)) handler(req, res);
    });
    server.keepAliveTimeout = options.keepAliveTimeout ?? 72_000;
    server.requestTimeout = options.requestTimeout ?? 0;
    server.setTimeout(options.connectionTimeout ?? 0);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}
