import type { Route } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { startFakeLive } from '../helpers/fake-live.ts';
import { newPage, runBrowser, useBrowser } from './browser.ts';

/**
 * The ranking follows the site without a reload (DECISIONS.md "Live updates"): a streamer who
 * goes live changes its row in place; ratings load the list again, once more at most while a
 * load is in flight; the keyboard's focus stays where it was.
 */
const live = await startFakeLive();
afterAll(() => live.close());

const ids = new Map<string, number>();
const full = (v: number) => ({ r: { s: v, g: v, a: v, v, n: v, ns: v, o: v } });

async function seed(t: TestApp) {
  const admin = await t.admin();
  for (const [name, channel, v] of [
    ['Top Tier', 'toptier', 9],
    ['Middle Ground', 'middleground', 6],
    ['Low Key', 'lowkey', 3],
  ] as const) {
    const id = (await admin.post('/api/streamers?admin=1', { name, provider_a: channel })).body.id as number;
    await admin.put(`/api/streamers?id=${id}`, full(v));
    ids.set(name, id);
  }
}

/** Counts the `rating` events the page's EventSource delivered, after the page's own listener. */
const COUNT_RATINGS = `(() => {
  const add = EventSource.prototype.addEventListener;
  window.ratingsHeard = 0;
  EventSource.prototype.addEventListener = function (type, fn, options) {
    add.call(this, type, fn, options);
    if (type === 'rating') add.call(this, type, () => window.ratingsHeard++);
  };
})();`;

describe.runIf(runBrowser(import.meta.url))('the ranking, live', () => {
  const env = useBrowser(seed, () => live.env());

  it('a streamer going live changes its row in place; ratings reload the list once more at most, focus kept', async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    try {
      await context.addInitScript(COUNT_RATINGS);
      // Every load of the list, the first one after `holding` held until the test lets it go.
      const loads: string[] = [];
      let holding = false;
      let release = () => {};
      const held = new Promise<void>((go) => (release = go));
      await page.route(
        (url) => url.pathname === '/api/streamers',
        async (route: Route) => {
          loads.push(route.request().url());
          if (holding) {
            holding = false;
            await held;
          }
          await route.continue();
        },
      );
      await page.goto(`${env.base}/`, { waitUntil: 'domcontentloaded' });
      const names = page.locator('.ranking .name');
      await expect
        .poll(() => names.allTextContents(), { timeout: 20_000 })
        .toEqual(['Top Tier', 'Middle Ground', 'Low Key']);
      await expect.poll(() => env.t.app.eventStreams.size, { timeout: 20_000 }).toBe(1);
      await page.evaluate(() => ((window as unknown as { marked: number }).marked = 1));
      // A keyboard user is on the last row's link.
      await page.getByRole('link', { name: 'Low Key' }).focus();

      // Live sync sees Middle Ground live: its row says so, and the list is not asked again.
      live.a.live.set('middleground', {
        game: 'Chess',
        title: 'Blitz',
        viewers: 1234,
        since: env.t.clock.now().toISOString(),
      });
      expect(await env.t.app.liveSync.runOnce()).toBe(true);
      const middle = page.locator('.ranking > li', { hasText: 'Middle Ground' }).locator('.badge.live');
      await expect.poll(() => middle.textContent()).toMatch(/LIVE\s·\s1,234 watching/);
      expect(loads).toEqual([]);

      // Three ratings while the first load they start is held: one load more after it, not three.
      holding = true;
      const admin = await env.t.admin();
      for (const v of [7, 8, 10]) await admin.put(`/api/streamers?id=${ids.get('Low Key')}`, full(v));
      const heard = () => page.evaluate(() => (window as unknown as { ratingsHeard: number }).ratingsHeard);
      await expect.poll(heard, { timeout: 20_000 }).toBe(3);
      release();
      await expect.poll(() => names.allTextContents()).toEqual(['Low Key', 'Top Tier', 'Middle Ground']);
      await expect.poll(() => loads.length).toBe(2);
      // The row that moved keeps the focus; the live row kept its status; the page was not reloaded.
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Low Key');
      expect(await middle.textContent()).toMatch(/LIVE/);
      expect(await page.evaluate(() => (window as unknown as { marked?: number }).marked)).toBe(1);
    } finally {
      await context.close();
    }
  });
});
