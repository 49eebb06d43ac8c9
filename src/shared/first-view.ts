/**
 * The first view's contract (docs/decisions.md "The first view"), written once: what the
 * service hands the page's server renderer (web/src/ssr.ts, built into dist/ssr/ssr.js) and
 * what it gets back (src/pages/first-view.ts), and the data inlined in the page for its script
 * to take over (web/src/lib/first-view.ts). `Item` is a streamer item: the service's schema type
 * on one side, the generated client's on the other (the same JSON).
 */

export interface PageInput<Item> {
  /** The page's path, e.g. `/` or `/s/12` (its key: src/shared/pages.ts `pageKey`). */
  path: string;
  /** The site's origin (what `location.origin` is in the browser). */
  origin: string;
  /** The Public view's list, in the service's order. */
  list: Item[];
  /** For `/s/<id>`: the id, and whether the service knows a streamer by it outside the Public view. */
  streamer?: { id: number; pending: boolean };
}

/** The data the first view was rendered with, inlined as JSON (`<script id="first-view">`). */
export interface FirstView<Item> {
  /** The Public view's list (`list`: its first items by rank when it is long). */
  list?: Item[];
  /** Whether `list` is the whole Public view. */
  complete?: boolean;
  /** The streamer of a `/s/<id>` page: its Public view item, or null when it is not in it. */
  streamer?: { id: number; item: Item | null; pending: boolean };
}

export interface PageOutput<Item> {
  /** The markup that goes inside `<div id="app">`. */
  body: string;
  /** What the page reads when its script runs, to be inlined as JSON. */
  data: FirstView<Item>;
}

/** What the built renderer module exports. */
export interface PageRenderer<Item> {
  renderPage(input: PageInput<Item>): PageOutput<Item>;
}
