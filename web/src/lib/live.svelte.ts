/**
 * The page's one live connection (DECISIONS.md "Live updates"): one EventSource, on the open
 * streamer's events when a streamer page is open, else on the ranking's (`?ranking=1`: every
 * listed streamer's `rating` and `live`) when the ranking is shown or a streamer page awaits its
 * streamer's rating (whose own events the visitor may not hear yet), else on the signed-in user's
 * own (the unread count, which the other two carry as well), else none. The browser reconnects
 * by itself after a dropped stream (the service asks for 3 s) and sends the last id it heard:
 * the service replays what it missed, or sends `reset` when it cannot ("Live updates that
 * resume"), and then every part of the page loads again what it shows. When the browser gives up
 * (an error answer, the network gone), this opens it again after a pause and as soon as the
 * network is back, and that new stream starts with a `reset` of its own (a new EventSource has
 * no last id to send).
 */
export const live = $state({ unread: 0, connected: false });

export type LiveData = {
  comment: { id: number; streamer_id: number };
  comment_removed: { id: number; streamer_id: number };
  rating: { streamer_id: number };
  live: { streamer_id: number; status: string; viewers: number | null };
  notification: { unread: number };
  /** Events were missed: load again what is shown. */
  reset: Record<string, never>;
};
type Kind = keyof LiveData;
const KINDS: Kind[] = ['comment', 'comment_removed', 'rating', 'live', 'notification', 'reset'];

const handlers = new Map<Kind, Set<(data: never) => void>>();
let source: EventSource | null = null;
let streamerId: number | null = null;
let signedIn = false;
let ranking = false;
let awaiting = false;
let again: ReturnType<typeof setTimeout> | undefined;
const REOPEN_MS = 5_000;

/** Calls `fn` with each event of this kind; answers the way to stop (an $effect's cleanup). */
export function onLive<K extends Kind>(kind: K, fn: (data: LiveData[K]) => void): () => void {
  const set = handlers.get(kind) ?? new Set();
  handlers.set(kind, set);
  set.add(fn);
  return () => set.delete(fn);
}

/** The streamer page open now (null when none). */
export function watchStreamer(id: number | null): void {
  if (id === streamerId) return;
  streamerId = id;
  open();
}

/** Whether the ranking is shown (RankList.svelte). */
export function watchRanking(value: boolean): void {
  if (value === ranking) return;
  ranking = value;
  open();
}

/**
 * Whether a streamer page shows a streamer awaiting rating, outside the Public view: the service
 * answers 404 for its events to a visitor, and the ranking's `rating` says when it enters.
 */
export function watchAwaiting(value: boolean): void {
  if (value === awaiting) return;
  awaiting = value;
  open();
}

/** What a `live` event changes of a streamer's item (the streamer page's, a row of the ranking). */
export const liveFields = (d: LiveData['live']) =>
  d.status === 'live'
    ? { status: 'live' as const, viewers: d.viewers }
    : { status: 'offline' as const, viewers: null };

/** Whether someone is signed in (their own events come with or without a streamer). */
export function setSignedIn(value: boolean): void {
  if (value === signedIn) return;
  signedIn = value;
  open();
}

function tell<K extends Kind>(kind: K, data: LiveData[K]): void {
  for (const fn of handlers.get(kind) ?? []) fn(data as never);
}

function open(reopened = false): void {
  clearTimeout(again);
  source?.close();
  source = null;
  live.connected = false;
  if (typeof EventSource === 'undefined' || (streamerId === null && !signedIn && !ranking && !awaiting))
    return;
  const es = new EventSource(
    streamerId !== null
      ? `/api/events?streamer_id=${streamerId}`
      : ranking || awaiting
        ? '/api/events?ranking=1'
        : '/api/events',
  );
  source = es;
  es.onopen = () => {
    live.connected = true;
    if (reopened) {
      reopened = false;
      tell('reset', {});
    }
  };
  es.onerror = () => {
    live.connected = false;
    // CLOSED: the browser will not try again by itself.
    if (es.readyState === EventSource.CLOSED && source === es)
      again = setTimeout(() => open(true), REOPEN_MS);
  };
  for (const kind of KINDS) {
    es.addEventListener(kind, (e) => {
      let data: unknown;
      try {
        data = JSON.parse((e as MessageEvent<string>).data);
      } catch {
        return;
      }
      tell(kind, data as LiveData[typeof kind]);
    });
  }
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => {
    if (!live.connected) open(true);
  });
}
