import { decodePath, href, type Route, routeOf as routeOfPath } from '../../../src/shared/pages.ts';
import type { Provider } from '../../../src/shared/rules.ts';
import { pageAddress } from './api.ts';

/**
 * History routes: the page's addresses and what each shows are src/shared/pages.ts's, which the
 * service answers too. Old `#/s/12` links are rewritten to their path on load.
 */
export type { Route };
export { href };

/** What the address in the browser shows: read as the service reads it (decoded), so both agree. */
const routeOf = (path: string): Route => routeOfPath(decodePath(path));

/** Rendering on the server (ssr.ts): there is no window, and the path is given. */
const inBrowser = typeof window !== 'undefined';

/** An old `#/s/12` address becomes its path; answers whether it did. */
function fromHash(): boolean {
  if (!location.hash.startsWith('#/')) return false;
  history.replaceState(null, '', location.hash.slice(1) || '/');
  return true;
}
if (inBrowser) fromHash();

const startPath = inBrowser ? location.pathname : '/';
export const router = $state({
  route: routeOf(startPath),
  /** The ranking's address as last shown (its filters and sort in the query), for "back". */
  ranking: inBrowser && routeOf(startPath).name === 'ranking' ? startPath + location.search : '/',
  /** The page before this one in the tab's history is that ranking (Back returns to it). */
  fromRanking: false,
});
let shown = startPath;

/**
 * What a page keeps in its own history entry (issue 17, #3): how far it was scrolled and how
 * many rows it showed, so Back returns to the same place once the page has its data again.
 */
export interface Kept {
  scroll?: number;
  shown?: number;
  /** The link that had the keyboard's focus as the page was left (its `href`): Back focuses it again. */
  focus?: string;
}
export const kept = (): Kept => (history.state ?? {}) as Kept;
export function keep(more: Kept): void {
  history.replaceState({ ...kept(), ...more }, '', location.href);
}
// The page restores the scroll itself when its data is there (the browser would do it too early).
if (inBrowser) history.scrollRestoration = 'manual';
let pendingScroll: number | null = null;
let pendingFocus: string | null = null;

/**
 * Called by a page when its content is shown: back at the kept scroll position, if any, with the
 * keyboard on the link it left by (a keyboard walk: it started again from the page's top).
 */
export function restoreScroll(): void {
  if (pendingScroll === null) return;
  const [y, focus] = [pendingScroll, pendingFocus];
  pendingScroll = pendingFocus = null;
  requestAnimationFrame(() => {
    window.scrollTo(0, y);
    const link =
      focus === null ? null : document.querySelector<HTMLElement>(`#main a[href="${CSS.escape(focus)}"]`);
    link?.focus({ preventScroll: true });
  });
}

/** After a navigation: top of the page, focus on the main region for screen readers. */
function arrived(back = false) {
  if (location.pathname === shown) return; // a fragment such as the skip link's #main
  shown = location.pathname;
  router.route = routeOf(location.pathname);
  if (router.route.name === 'ranking') router.ranking = location.pathname + location.search;
  pendingScroll = back ? (kept().scroll ?? null) : null;
  pendingFocus = back ? (kept().focus ?? null) : null;
  if (pendingScroll === null) window.scrollTo(0, 0);
  queueMicrotask(() => document.getElementById('main')?.focus({ preventScroll: true }));
}

/**
 * Checks that may stop a navigation inside the page (a form with unsaved changes asks first);
 * each answers whether leaving is fine. `guardLeaving` answers the function that removes it.
 */
const leaveChecks = new Set<() => boolean>();
export function guardLeaving(check: () => boolean): () => void {
  leaveChecks.add(check);
  return () => leaveChecks.delete(check);
}

/** Whether leaving this page now is fine (every check agrees). */
export const mayLeave = (): boolean => [...leaveChecks].every((check) => check());

export function navigate(path: string, replace = false): void {
  if (path === location.pathname + location.search + location.hash) return;
  if (!mayLeave()) return;
  shown = '';
  router.fromRanking = !replace && router.route.name === 'ranking';
  if (replace) history.replaceState(null, '', path);
  else {
    const focused = document.activeElement;
    keep({
      scroll: window.scrollY,
      focus: focused instanceof HTMLAnchorElement ? (focused.getAttribute('href') ?? undefined) : undefined,
    });
    history.pushState(null, '', path);
  }
  arrived();
}

if (inBrowser) {
  window.addEventListener('popstate', () => {
    router.fromRanking = false;
    arrived(true);
  });
  window.addEventListener('hashchange', () => {
    if (fromHash()) arrived();
  });
  document.addEventListener('click', follow);
}

/**
 * Same-origin page links navigate in place, with their fragment (a comment's `#c<id>`, which the
 * comments show once loaded); API links, new tabs, downloads, other kinds of documents and a
 * fragment of this page behave normally.
 */
function follow(e: MouseEvent) {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = (e.target as Element | null)?.closest?.('a');
  // A link to another kind of document (a feed's `type="application/atom+xml"`) is the browser's.
  if (!a || a.target || a.hasAttribute('download') || (a.type && a.type !== 'text/html')) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || /^\/(api|dev)\//.test(url.pathname)) return;
  if (url.pathname === location.pathname && url.hash) return;
  e.preventDefault();
  navigate(url.pathname + url.search + url.hash);
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
  router.route = routeOf(path);
}
