import type { Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamerPath } from '../../src/shared/rules.ts';
import { type Device, type FakePush, startFakePush } from '../helpers/fake-push.ts';
import type { TestApp } from '../helpers/app.ts';
import { startStream } from '../helpers/live-start.ts';
import { axe, newPage, runBrowser, shot, signIn, useBrowser } from './browser.ts';

/**
 * Issue 41 on the page: a visitor follows a streamer, turns push on in the account page's
 * Notifications section, the streamer goes live, the service sends the message to the push
 * service (the fake, which decrypts it with the device's keys), the service worker shows it and
 * a click on it opens the streamer's page.
 *
 * Chromium without a network cannot reach its own push service (Google's), so its
 * `pushManager.subscribe` refuses headless: the test stands in for that one browser call with a
 * subscription whose endpoint is the fake push service's and whose keys the test made. What
 * the push service would hand the browser is handed to the service worker through the DevTools
 * protocol (`ServiceWorker.deliverPushMessage`), as the push service would.
 */

/** What the test reads of the service worker's global scope (the tests are typed for pages). */
interface WorkerScope {
  registration: { getNotifications(): Promise<{ title: string; body: string; tag: string; icon: string }[]> };
  dispatchEvent(event: Event): boolean;
}
declare const NotificationEvent: new (type: string, init: { notification: unknown }) => Event;

const NAME = 'Pushy Streamer';
let sid = 0;
let push: FakePush;
let device: Device;

/** The streamer's avatar, as live sync keeps it: the message shows it as its icon. */
const avatarOf = (t: TestApp) => `${t.config.baseUrl}/icon-512.png`;

async function seed(t: TestApp) {
  sid = await t.streamer(NAME, { s: 8, g: 8, a: 8, v: 8, n: 8, ns: 8, o: 8 });
  await t.db
    .updateTable('streamers')
    .set({ avatar: avatarOf(t) })
    .where('id', '=', sid)
    .execute();
}

/** Live sync starts a stream of the streamer. */
const goLive = (t: TestApp) => startStream(t, sid);

/** The browser's push subscription, made by the push service this machine cannot reach, kept across loads. */
const standIn = (d: Device) => `(() => {
  const sub = ${JSON.stringify({ endpoint: d.endpoint, keys: d.keys })};
  const made = () => ({
    endpoint: sub.endpoint,
    expirationTime: null,
    toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }),
    unsubscribe: async () => { localStorage.removeItem('stand-in-push'); return true; },
  });
  PushManager.prototype.subscribe = async function () {
    localStorage.setItem('stand-in-push', '1');
    return made();
  };
  PushManager.prototype.getSubscription = async function () {
    return localStorage.getItem('stand-in-push') ? made() : null;
  };
})();`;

describe.runIf(runBrowser(import.meta.url))('push notifications in the browser', () => {
  beforeAll(async () => {
    push = await startFakePush();
    device = push.device();
  });
  afterAll(() => push?.close());
  const env = useBrowser(seed, () => ({ PUSH_SERVICE_URL: push.serviceUrl }), true);

  it('the first page a visitor opens is served by the worker it registers, without a reload (clients.claim)', async () => {
    const { page, context } = await newPage(env, { phone: true, lang: 'en' });
    await page.goto(`${env.base}/`);
    // The same document throughout: a navigation would be served by an active worker anyway.
    const document = await page.evaluate(
      () => ((window as unknown as { marked?: number }).marked = Math.random()),
    );
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { marked?: number }).marked)).toBe(document);
    await context.close();
  });

  it('follow, turn push on, the streamer goes live: the worker shows the message and its click opens the streamer', async () => {
    const { page, context } = await newPage(env, { phone: true, lang: 'en' });
    await context.grantPermissions(['notifications'], { origin: env.base });
    await context.addInitScript(standIn(device));
    await signIn(env, page, 'provider_a');
    await page.goto(`${env.base}${streamerPath(sid, NAME)}`);
    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    await page.getByRole('button', { name: 'Following', exact: true }).waitFor();

    await page.goto(`${env.base}/your-data`);
    await page.getByRole('heading', { name: 'Notifications on this device' }).waitFor();
    // iOS shows web push only for a site added to the home screen: said where push is offered.
    await page.getByText('On iPhone and iPad, first add the site to your home screen').waitFor();
    expect(await page.getByLabel('A streamer I follow goes live').isChecked()).toBe(true);
    // This user speaks for no streamer: a new rating of "my channel" is not offered (a week's walk).
    expect(await page.getByLabel('A new rating of my channel').count()).toBe(0);
    await page.getByLabel('Replies to my comments').check();
    await page.getByRole('button', { name: 'Turn on notifications' }).click();
    await page.getByRole('status').getByText('Notifications are on for this device.').waitFor();
    const stored = await env.t.db.selectFrom('push_subscriptions').select(['endpoint', 'kinds']).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.endpoint).toBe(device.endpoint);
    expect(String(stored[0]?.kinds)).toMatch(/live.*reply/);
    await axe(env, page, 'account page with push on');
    await shot(page, 'push-on-phone');

    // The page's worker: registered by the page, serving it (clients.claim) without a reload.
    const worker: Worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

    env.t.clock.advance(60_000);
    await goLive(env.t);
    await env.t.app.push.look();
    await env.t.app.push.idle();
    const sent = push.delivered(device);
    expect(sent).toHaveLength(1);
    const message = push.payload(sent[0]!);
    expect(message).toMatchObject({ kind: 'live', url: `${env.t.config.baseUrl}${streamerPath(sid, NAME)}` });

    const cdp = await context.newCDPSession(page);
    const registration = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
        const found = e.registrations.find((r) => r.scopeURL === `${env.base}/`);
        if (found) resolve(found.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    const registrationId = await registration;
    // As the push service hands it over; again while nothing shows (a worker that a busy machine
    // stopped and started may miss one): one stream is one message by its tag, however often.
    const hand = () =>
      cdp.send('ServiceWorker.deliverPushMessage', {
        origin: env.base,
        registrationId,
        data: JSON.stringify(message),
      });
    await hand();
    const current = () => context.serviceWorkers()[0] ?? worker;
    const shown = () =>
      current().evaluate(async () =>
        (await (self as unknown as WorkerScope).registration.getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          icon: n.icon,
        })),
      );
    await expect
      .poll(async () => {
        const now = await shown();
        if (now.length === 0) await hand();
        return now;
      })
      .toHaveLength(1);
    expect((await shown())[0]).toEqual({
      title: message.title,
      body: message.body,
      tag: message.tag,
      icon: avatarOf(env.t),
    });

    // A click on it (the worker's own handler, given the notification it shows).
    await current().evaluate(async () => {
      const scope = self as unknown as WorkerScope;
      const [n] = await scope.registration.getNotifications();
      scope.dispatchEvent(new NotificationEvent('notificationclick', { notification: n! }));
    });
    await page.waitForURL(String(message.url));
    await page.getByRole('heading', { name: NAME }).waitFor();
    expect(
      await worker.evaluate(
        async () => (await (self as unknown as WorkerScope).registration.getNotifications()).length,
      ),
    ).toBe(0);

    // The test message button reaches the same device.
    push.reset();
    await page.goto(`${env.base}/your-data`);
    await page.getByRole('button', { name: 'Send a test message' }).click();
    await page.getByRole('status').getByText('A test message is on its way.').waitFor();
    await env.t.app.push.look();
    await env.t.app.push.idle();
    expect(push.delivered(device).map((r) => push.payload(r).kind)).toEqual(['test']);

    // Another device of the same user (a tablet): listed under this one's settings, and removable.
    const tablet = push.device();
    const added = await page.evaluate(
      async (body) => {
        const res = await fetch('/api/push/subscriptions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return res.status;
      },
      { endpoint: tablet.endpoint, keys: tablet.keys, kinds: ['mention'] },
    );
    expect(added).toBe(201);
    await page.goto(`${env.base}/your-data`);
    await page.getByRole('heading', { name: 'Your other devices' }).waitFor();
    const other = page.locator('.devices li');
    await expect.poll(() => other.count()).toBe(1);
    expect(await other.innerText()).toMatch(/^Added .+: Mentions \(@name\)\. Nothing delivered yet\./);
    await shot(page, 'push-other-devices-phone');
    await other.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('status').getByText('That device will get no more messages.').waitFor();
    expect(await other.count()).toBe(0);
    const left = await env.t.db.selectFrom('push_subscriptions').select('endpoint').execute();
    expect(left.map((r) => r.endpoint)).toEqual([device.endpoint]);
    await context.close();
  });

  it("a push service that refuses the subscription is told in the page's words, not the browser's (stop 71's walk)", async () => {
    const { page, context } = await newPage(env, { phone: true, lang: 'en' });
    await context.grantPermissions(['notifications'], { origin: env.base });
    // What headless Chromium and a browser with its push service off answer.
    await context.addInitScript(
      `PushManager.prototype.subscribe = async () => { throw new DOMException('Registration failed - permission denied', 'AbortError'); };`,
    );
    await signIn(env, page, 'provider_a');
    await page.goto(`${env.base}/your-data`);
    await page.getByRole('heading', { name: 'Notifications on this device' }).waitFor();
    await page.getByRole('button', { name: 'Turn on notifications' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: "This browser's push service did not take the subscription" })
      .waitFor();
    expect(await page.getByText('AbortError').count()).toBe(0);
    await context.close();
  });
  it('a streamer is offered a push for a new rating of their channel, which a viewer is not', async () => {
    const admin = await env.t.sharedAdmin();
    const made = await admin.post('/api/streamers?admin=1', {
      name: 'Push Own',
      platform: 'provider_a',
      provider_a: 'twitchdev',
    });
    expect(made.status, made.text).toBe(201);
    const { page, context } = await newPage(env, { lang: 'en' });
    await context.grantPermissions(['notifications'], { origin: env.base });
    await signIn(env, page, 'provider_a');
    await page.goto(`${env.base}/your-data`);
    await page.getByLabel('A new rating of my channel').waitFor();
    await context.close();
  });
});
