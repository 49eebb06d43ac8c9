/* global self, AbortSignal */
/**
 * The service worker (DECISIONS.md "Fifth wave" → "Push notifications"): shows each push
 * message (title, body, the streamer's avatar as its icon, `tag` so that one stream or comment
 * is one message) and opens its `url` on a click, in a window of the site that is already open
 * if there is one. It caches nothing: the page works as it does without it.
 */
const ICON = '/icon-192.png';
/** How long the streamer's avatar is looked for before the site's icon is shown instead. */
const AVATAR_WAIT_MS = 3000;

/**
 * The avatar of the streamer whose page `url` is (`/s/<id>` or `/s/<id>-<name>`), as
 * GET /api/streamers?id=<id> answers it; the site's icon when there is none or no answer.
 * The payload carries no picture (its fields are the contract's), so the worker asks.
 */
async function iconOf(url) {
  try {
    const match = /^\/s\/(\d+)(?:-|$)/.exec(new URL(url, self.location.origin).pathname);
    if (!match) return ICON;
    const answer = await fetch(`/api/streamers?id=${match[1]}`, {
      signal: AbortSignal.timeout(AVATAR_WAIT_MS),
    });
    if (!answer.ok) return ICON;
    const { avatar } = await answer.json();
    return typeof avatar === 'string' && /^https?:\/\//.test(avatar) ? avatar : ICON;
  } catch {
    return ICON;
  }
}

// The page that registered the worker is served by it at once (not only after a reload), so a
// click on a message can bring that very tab to the message's page.
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  const title = typeof data.title === 'string' && data.title ? data.title : 'Hodnocení streamerů';
  const url = typeof data.url === 'string' ? data.url : '/';
  event.waitUntil(
    iconOf(url).then((icon) =>
      self.registration.showNotification(title, {
        body: typeof data.body === 'string' ? data.body : '',
        icon,
        badge: ICON,
        tag: typeof data.tag === 'string' ? data.tag : undefined,
        data: { url },
      }),
    ),
  );
});

/** Only the site's own pages are opened. */
function targetOf(url) {
  try {
    const target = new URL(url, self.location.origin);
    return target.origin === self.location.origin ? target.href : self.location.origin + '/';
  } catch {
    return self.location.origin + '/';
  }
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = targetOf(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((open) => {
      const same = open.find((c) => c.url === target);
      if (same) return same.focus();
      const any = open.find((c) => 'navigate' in c);
      if (!any) return self.clients.openWindow(target);
      // A tab the worker does not serve cannot be navigated by it: a new window then.
      return any.navigate(target).then(
        (c) => (c ? c.focus() : self.clients.openWindow(target)),
        () => self.clients.openWindow(target),
      );
    }),
  );
});
