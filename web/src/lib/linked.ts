/** Pages read at most, newest first, to find the comment a link names. */
export const LINK_PAGES = 10;

/**
 * The comment the address names (`#c<id>`: a notification, an e-mail, a feed, a push message);
 * none while rendering on the server (no address there).
 */
export function linkedComment(hash = typeof location === 'undefined' ? '' : location.hash): number | null {
  const m = /^#c(\d+)$/.exec(hash);
  return m ? Number(m[1]) : null;
}

/** A list of comments as revealLinked reads it. */
export interface LinkedList {
  has(id: number): boolean;
  /** Loads the next page; answers whether it brought any comment. */
  next(): Promise<boolean>;
  /** Renders the comment once the list has it (a page of "oldest first" shows more of what it has). */
  show(): Promise<void>;
}

/**
 * Brings the comment the address names into the list and onto the screen: pages are read until
 * the list has it (at most LINK_PAGES), then it is scrolled to. One that is gone or hidden is not
 * looked for further.
 */
export async function revealLinked(list: LinkedList): Promise<void> {
  const id = linkedComment();
  if (id === null) return;
  for (let page = 0; !list.has(id) && page < LINK_PAGES; page++) if (!(await list.next())) return;
  if (!list.has(id)) return;
  await list.show();
  // Scrolled to and focused: marked on the screen (until focus moves on), and read out by a
  // screen reader. Only this comment takes focus, and only until then.
  const comment = document.getElementById(`c${id}`);
  if (!comment) return;
  comment.scrollIntoView({ block: 'center' });
  comment.tabIndex = -1;
  comment.addEventListener('blur', () => comment.removeAttribute('tabindex'), { once: true });
  comment.focus({ preventScroll: true });
}

/** Calls `reveal` when the address names another comment of the page (the bell, while it is open). */
export function onLinkChange(reveal: () => unknown): () => void {
  const listener = () => void reveal();
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
}
