import { streamerPath } from './rules.ts';

/**
 * The page's addresses (DECISIONS.md "Streamer pages"), written once: the service answers each
 * with the page's HTML and its first view (src/pages/), the page's router shows the view of each
 * (web/src/lib/router.svelte.ts), and a sign-in returns only to one of them (src/signin/).
 * Pure: the page imports it.
 */

/** The service worker's script (web/public/sw.js): push messages, and the page installable. */
export const SERVICE_WORKER = '/sw.js';

/** The addresses that name no streamer nor a tab, by the name of the view that shows them. */
export const PLAIN_PAGES = {
  ranking: '/',
  suggest: '/suggest',
  privacy: '/privacy',
  account: '/your-data',
  team: '/team',
  /** DECISIONS.md "Schedules": the next 7 days' streams, by day. */
  upcoming: '/upcoming',
} as const;

export type PlainPage = keyof typeof PLAIN_PAGES;

/** What an address shows. */
export type Route =
  | { name: PlainPage }
  | { name: 'streamer'; id: number }
  | { name: 'admin'; tab: string }
  | { name: 'notFound' };

/** The administration's first tab, where `/admin` leads. */
export const FIRST_ADMIN_TAB = 'streamers';

const STREAMER = /^\/s\/(\d{1,15})(-[^/]*)?$/;
const ADMIN = /^\/admin(?:\/([a-z-]+))?$/;
const BY_PATH = new Map<string, PlainPage>(
  Object.entries(PLAIN_PAGES).map(([name, path]) => [path, name as PlainPage]),
);

/** The route of a path (decoded, no query); an address that is none of the page's is the "not found" page. */
export function routeOf(path: string): Route {
  const plain = BY_PATH.get(path);
  if (plain) return { name: plain };
  const streamer = STREAMER.exec(path);
  if (streamer) return { name: 'streamer', id: Number(streamer[1]) };
  const admin = ADMIN.exec(path);
  if (admin) return { name: 'admin', tab: admin[1] ?? FIRST_ADMIN_TAB };
  return { name: 'notFound' };
}

/**
 * The key a page address is rendered under (the same page whatever its slug: `/s/12-any` is
 * `/s/12`), or null when the path is not one of the page's addresses.
 */
export function pageKey(path: string): string | null {
  const route = routeOf(path);
  if (route.name === 'notFound') return null;
  return route.name === 'streamer' ? `/s/${route.id}` : path;
}

/** A path as sent (percent-encoded) read as text, as the service reads it; a malformed escape names no page. */
export function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return '\u0000';
  }
}

/** The page's links. */
export const href = {
  ...PLAIN_PAGES,
  streamer: (id: number, name = ''): string => streamerPath(id, name),
  admin: (tab = FIRST_ADMIN_TAB): string => `/admin/${tab}`,
};
