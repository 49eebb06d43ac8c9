/* global self */
/**
 * The service worker (DECISIONS.md "Fifth wave" → "Push notifications"): shows each push
 * message (title, body, the site's icon, `tag` so that one stream or comment is one message)
 * and opens its `url` on a click, in a window of the site that is already open if there is one.
 * It caches nothing: the page works as it does without it.
 */
const ICON = '/icon-192.png';

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
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      icon: ICON,
      badge: ICON,
      tag: typeof data.tag === 'string' ? data.tag : undefined,
      data: { url: typeof data.url === 'string' ? data.url : '/' },
    }),
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
