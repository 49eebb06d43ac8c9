import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PageRenderer } from '../shared/first-view.ts';
import type { StreamerItem } from '../streamers/schemas.ts';
import { withHead, type Head } from './pages.ts';

/**
 * The first view (docs/decisions.md "The first view"): the page's HTML with the ranking or
 * the streamer already in it, rendered by the page's own components on the server
 * (web/src/ssr.ts, built into dist/ssr/ssr.js), with the data they showed inlined as JSON so
 * the page's script takes the markup over without asking again. Rendered once per page and
 * content version and kept in the answer cache (cache/answers.ts), never per request.
 */

/** The page's renderer as the service calls it (its contract: src/shared/first-view.ts). */
export type Renderer = PageRenderer<StreamerItem>;

/** The built renderer beside the built page (`<project>/dist/ssr/ssr.js`), or null when not built. */
export async function loadRenderer(webRoot: string): Promise<Renderer | null> {
  const file = join(webRoot, '..', 'ssr', 'ssr.js');
  if (!existsSync(file)) return null;
  return (await import(pathToFileURL(file).href)) as Renderer;
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
