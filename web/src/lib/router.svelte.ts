import { type Provider, streamerPath } from '../../../src/shared/rules.ts';
import { pageAddress } from './api.ts';

/**
 * History routes (DECISIONS.md "Streamer pages"): `/`, `/s/12-name` (a streamer), `/suggest`,
 * `/admin`, `/admin/teams`. Old `#/s/12` links are rewritten to their path on load.
 */
export type Route =
  | { name: 'ranking' }
  | { name: 'streamer'; id: number }
  | { name: 'suggest' }
  | { name: 'admin'; tab: string }
  | { name: 'notFound' };

/** The route of a path; an address that is none of the page's is the "not found" page. */
export function parse(path: string): Route {
  const parts = path.replace(/^\/+/, '').split('/');
  const id = /^(\d+)(-.*)?$/.exec(parts[1] ?? '')?.[1];
  if (parts[0] === 's' && id) return { name: 'streamer', id: Number(id) };
  if (parts[0] === 'suggest') return { name: 'suggest' };
  if (parts[0] === 'admin') return { name: 'admin', tab: parts[1] || 'streamers' };
  if (parts[0] === '' || parts[0] === 'index.html') return { name: 'ranking' };
  return { name: 'notFound' };
}

/** Rendering on the server (ssr.ts): there is no window, and the path is given. */
const inBrowser = typeof window !== 'undefined';

/** An old `#/s/12` address becomes its path; answers whether it did. */
function fromHash(): boolean {
  if (!location.hash.startsWith('#/')) return false;
  history.replaceState(null, '', location.hash.slice(1) || '/');
  return true;
}
if (inBrowser) fromHash();

export const router = $state({ route: parse(inBrowser ? location.pathname : '/') });
let shown = inBrowser ? location.pathname : '/';

/** After a navigation: top of the page, focus on the main region for screen readers. */
function arrived() {
  if (location.pathname === shown) return; // a fragment such as the skip link's #main
  shown = location.pathname;
  router.route = parse(location.pathname);
  window.scrollTo(0, 0);
  queueMicrotask(() => document.getElementById('main')?.focus({ preventScroll: true }));
}

export function navigate(path: string, replace = false): void {
  if (path === location.pathname + location.search) return;
  shown = '';
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  arrived();
}

if (inBrowser) {
  window.addEventListener('popstate', arrived);
  window.addEventListener('hashchange', () => {
    if (fromHash()) arrived();
  });
  document.addEventListener('click', follow);
}

/** Same-origin page links navigate in place; API links, new tabs and hashes behave normally. */
function follow(e: MouseEvent) {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = (e.target as Element | null)?.closest?.('a');
  if (!a || a.target || a.hasAttribute('download')) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || /^\/(api|dev)\//.test(url.pathname)) return;
  if (url.pathname === location.pathname && url.hash) return;
  e.preventDefault();
  navigate(url.pathname + url.search);
}

/** Sets the tab's title: the page part first, then the site. */
export function setTitle(site: string, part?: string): void {
  document.title = part ? `${part} – ${site}` : site;
}

/** The sign-in address that returns here afterwards (a page navigation, typed by the document). */
export const signInHref = (provider: Provider) =>
  pageAddress('/api/oauth/login/{provider}', {
    path: { provider },
    query: { return: inBrowser ? location.pathname : shown },
  });

/** The server's rendering of `path` (ssr.ts). */
export function renderingPath(path: string): void {
  shown = path;
  router.route = parse(path);
}

export const href = {
  ranking: '/',
  streamer: (id: number, name = '') => streamerPath(id, name),
  suggest: '/suggest',
  admin: (tab = 'streamers') => `/admin/${tab}`,
};
