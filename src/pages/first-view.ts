import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Rendered } from '../cache/rendered.ts';
import { answerFor } from '../cache/send.ts';
import type { StreamerItem } from '../streamers/schemas.ts';
import { isPlainPage, withHead, type Head } from './pages.ts';

/**
 * The first view (docs/decisions.md "The first view"): the page's HTML with the ranking or
 * the streamer already in it, rendered by the page's own components on the server
 * (web/src/ssr.ts, built into dist/ssr/ssr.js), with the data they showed inlined as JSON so
 * the page's script takes the markup over without asking again. Rendered once per page and
 * content version, kept with its ETag and compressed forms, never per request.
 */

/** What web/src/ssr.ts exports (kept in step by test/first-view.test.ts). */
export interface PageRenderer {
  renderPage(input: {
    path: string;
    origin: string;
    list: StreamerItem[];
    streamer?: { id: number; pending: boolean };
  }): { body: string; data: unknown };
}

/** The built renderer beside the built page (`<project>/dist/ssr/ssr.js`), or null when not built. */
export async function loadRenderer(webRoot: string): Promise<PageRenderer | null> {
  const file = join(webRoot, '..', 'ssr', 'ssr.js');
  if (!existsSync(file)) return null;
  return (await import(pathToFileURL(file).href)) as PageRenderer;
}

/**
 * JSON that may stand inside `<script type="application/json">`: no `<` at all (so no
 * `</script>` and no `<!--`), and the two line separators JavaScript once refused.
 */
export function inlineJson(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const APP = '<div id="app"></div>';

/** The index HTML with the head, the rendered markup in `#app` and the data after it. */
export function pageHtml(index: string, head: Head, body: string, data: unknown): string {
  const html = withHead(index, head);
  const at = html.indexOf(APP);
  if (at < 0) return html;
  const filled = `<div id="app">${body}</div>\n    <script type="application/json" id="first-view">${inlineJson(data)}</script>`;
  return html.slice(0, at) + filled + html.slice(at + APP.length);
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** A page answer: its status and the rendered bytes (the cache's Rendered shape, cache/send.ts). */
export interface PageRendering extends Rendered<undefined> {
  status: 200 | 404;
}

/** HTML bytes with their ETag and best compressed forms (read many times per change). */
export async function renderedHtml(html: string, status: 200 | 404, version: number): Promise<PageRendering> {
  const identity = Buffer.from(html);
  const etag = `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`;
  const br = await brotli(identity, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_LGWIN]: 20,
      [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
  const gz = await gzipAsync(identity, { level: 9 });
  return { version, value: undefined, etag, identity, br, gzip: gz, status };
}

/** Pages kept at once: the home, the not-found page and the streamer pages visited lately. */
const KEPT = 512;

/**
 * Page renderings by key (`/`, `s:12`, `not-found`), each for the content version it was
 * rendered at, the most recently used last; concurrent misses wait for one rendering.
 */
export class PageCache {
  readonly #entries = new Map<string, PageRendering>();
  readonly #pending = new Map<string, Promise<PageRendering>>();

  /** The rendering of `key` if it is current (the fast answers read this). */
  peek(key: string, version: number): PageRendering | undefined {
    const hit = this.#entries.get(key);
    return hit && hit.version === version ? hit : undefined;
  }

  async get(key: string, version: number, produce: () => Promise<PageRendering>): Promise<PageRendering> {
    const hit = this.#entries.get(key);
    if (hit && hit.version === version) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit;
    }
    const flight = `${key}\u0000${version}`;
    let pending = this.#pending.get(flight);
    if (!pending) {
      pending = produce();
      this.#pending.set(flight, pending);
      void pending.then(
        (rendered) => {
          this.#pending.delete(flight);
          const old = this.#entries.get(key);
          if (old && old.version > rendered.version) return;
          this.#entries.delete(key);
          this.#entries.set(key, rendered);
          for (const k of this.#entries.keys()) {
            if (this.#entries.size <= KEPT) break;
            this.#entries.delete(k);
          }
        },
        () => this.#pending.delete(flight),
      );
    }
    return pending;
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** The key a page path is rendered under, or null when it is not one of the page's addresses. */
export function pageKey(path: string): string | null {
  if (isPlainPage(path)) return path;
  const m = /^\/s\/(\d{1,15})(-[^/]*)?$/.exec(path);
  return m ? `/s/${Number(m[1])}` : null;
}

/** The key of the site's "not found" page, rendered like any other. */
export const NOT_FOUND_KEY = '/not-found';

/**
 * Whether an unknown address gets the site's "not found" page rather than the JSON 404: a GET
 * or HEAD outside the API, the built files, the badges and the development routes, for an
 * address that names no file. `accept` (the request's Accept) must ask for HTML, as a
 * browser's navigation does; without it (a script, a scraper) the answer stays JSON.
 */
export function isPageAddress(method: string, path: string, accept = 'text/html'): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (!/\btext\/html\b/i.test(accept)) return false;
  if (/^\/(api|assets|dev|badge)(\/|$)/.test(path)) return false;
  return !/\.[a-z0-9]+$/i.test(path) || path.endsWith('.html');
}

/** The headers a page answer carries besides its own (plugins/security-headers.ts). */
export interface PageHeaders {
  /** An HTML page's. */
  document: Record<string, string>;
}

/**
 * Before routing (cache/fast-answers.ts): a page address answered from the current rendering,
 * exactly as the route answers it (test/first-view-fast.test.ts compares them); false when
 * Fastify must answer (a cookie, a query, no current rendering, not a page address).
 */
export function answerPage(
  pages: PageCache,
  req: IncomingMessage,
  res: ServerResponse,
  version: number,
  extra: PageHeaders,
): number | false {
  const url = req.url ?? '';
  if (req.headers.cookie !== undefined || url.includes('?')) return false;
  let path: string;
  try {
    path = decodeURIComponent(url);
  } catch {
    return false;
  }
  const key = pageKey(path);
  const page = key === null ? undefined : pages.peek(key, version);
  if (!page) return false;
  const found = page.status === 200;
  const answer = answerFor(
    page,
    found ? req.headers['if-none-match'] : undefined,
    req.headers['accept-encoding'],
  );
  const own = {
    'cache-control': 'no-cache',
    vary: 'Accept-Encoding',
    ...(found ? { etag: page.etag } : {}),
  };
  if (answer.status === 304) {
    // The page's policy: a browser keeps a 304's headers for the page it revalidated.
    res.writeHead(304, { ...own, ...extra.document });
    res.end();
    return 304;
  }
  const body = answer.body ?? page.identity;
  res.writeHead(page.status, {
    ...own,
    'content-type': 'text/html; charset=utf-8',
    ...(answer.encoding ? { 'content-encoding': answer.encoding } : {}),
    ...extra.document,
    'content-length': String(body.length),
  });
  res.end(body);
  return page.status;
}
