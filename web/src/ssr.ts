/**
 * The page's first view rendered on the server (docs/decisions.md "The first view"): built by
 * `vite build --ssr` into dist/ssr/ssr.js and called by the service (src/pages/first-view.ts)
 * once per content version and page, never per request. The page's script hydrates what this
 * renders, with the same data (first-view.ts), so nothing moves when it runs.
 */
import { render } from 'svelte/server';
import App from './App.svelte';
import type { Streamer } from './lib/api.ts';
import type { PageInput, PageOutput, PageRenderer } from '../../src/shared/first-view.ts';
import { setFirstView, type FirstView } from './lib/first-view.ts';
import { NO_FILTERS, rankAndFilter } from './lib/ranking.ts';
import { renderingPath } from './lib/router.svelte.ts';

/** Past this many streamers the page carries only the first ones by rank, and asks for the rest. */
export const INLINE_MAX = 100;
/** The ranking's first page (RankList.svelte shows 50 before "Show more"). */
const FIRST_PAGE = 50;

/** Stand-ins for what the components read from the browser while they render (no listeners). */
function withBrowserStandIns<T>(origin: string, path: string, run: () => T): T {
  const g = globalThis as Record<string, unknown>;
  const saved = { localStorage: g.localStorage, location: g.location };
  const url = new URL(path, origin);
  g.localStorage = { getItem: () => null, setItem() {}, removeItem() {} };
  g.location = { origin: url.origin, pathname: url.pathname, search: '', hash: '', href: url.href };
  try {
    return run();
  } finally {
    if (saved.localStorage === undefined) delete g.localStorage;
    else g.localStorage = saved.localStorage;
    if (saved.location === undefined) delete g.location;
    else g.location = saved.location;
  }
}

export function renderPage(input: PageInput<Streamer>): PageOutput<Streamer> {
  const data: FirstView = {};
  if (input.streamer) {
    const item = input.list.find((s) => s.id === input.streamer?.id) ?? null;
    data.streamer = { id: input.streamer.id, item, pending: item === null && input.streamer.pending };
  } else if (input.path === '/') {
    const complete = input.list.length <= INLINE_MAX;
    const list = complete
      ? input.list
      : rankAndFilter(input.list, NO_FILTERS)
          .slice(0, FIRST_PAGE)
          .map((r) => r.s);
    data.list = list;
    data.complete = complete;
  }
  const body = withBrowserStandIns(input.origin, input.path, () => {
    renderingPath(input.path);
    // The components take what they show from it while rendering (a copy: they consume it).
    setFirstView(structuredClone(data));
    try {
      return render(App).body;
    } finally {
      setFirstView(null);
    }
  });
  return { body, data };
}

// The service loads this module as the renderer of src/shared/first-view.ts's contract.
export const renderer = { renderPage } satisfies PageRenderer<Streamer>;
