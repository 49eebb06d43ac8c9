import type { FirstView as SharedFirstView } from '../../../src/shared/first-view.ts';
import type { Streamer } from './api.ts';

/**
 * The data the service rendered the first view with (src/pages/first-view.ts; the contract:
 * src/shared/first-view.ts): inlined in the page as JSON (`<script type="application/json"
 * id="first-view">`) so that the page, once its script runs, shows the same thing at once
 * instead of asking again (docs/decisions.md "The first view"). On the server, ssr.ts sets it
 * before each render.
 */
export type FirstView = SharedFirstView<Streamer>;

let current: FirstView | null = null;

/** The server's rendering (ssr.ts): what the components read while rendering. */
export function setFirstView(view: FirstView | null): void {
  current = view;
}

function fromPage(): FirstView | null {
  if (typeof document === 'undefined') return null;
  const script = document.getElementById('first-view');
  if (!script?.textContent) return null;
  try {
    return JSON.parse(script.textContent) as FirstView;
  } catch {
    return null;
  }
}

if (typeof document !== 'undefined') current = fromPage();

/**
 * The inlined list, once: the ranking's first rendering shows it, later ones (after a
 * navigation, when it may be stale) ask the service.
 */
export function takeList(): { list: Streamer[]; complete: boolean } | null {
  const view = current;
  const list = view?.list;
  if (!view || !list) return null;
  if (typeof document !== 'undefined') delete view.list;
  return { list, complete: view.complete === true };
}

/** The inlined streamer of the page `/s/<id>`, once (see takeList). */
export function takeStreamer(id: number): { item: Streamer | null; pending: boolean } | null {
  const found = current?.streamer;
  if (!found || found.id !== id) return null;
  if (typeof document !== 'undefined') delete current?.streamer;
  return { item: found.item, pending: found.pending };
}
