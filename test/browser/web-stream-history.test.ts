import { afterAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../../src/lib/clock.ts';
import type { TestApp } from '../helpers/app.ts';
import { type Stream, startFakeLive } from '../helpers/fake-live.ts';
import { axe, newPage, runBrowser, shot, useBrowser } from './browser.ts';

/** Issue 28 on the page: the last 30 days, the recent streams with their charts and tables, the sort by hours. */
const live = await startFakeLive();
afterAll(() => live.close());

let sid = 0;
/** A page, its charts and axe on two shared, busy cores. */
const SLOW = 90_000;
/** One sync round through the fake Twitch, then a minute passes. */
async function round(t: TestApp) {
  expect(await t.app.liveSync.runOnce()).toBe(true);
  // A failed check is silent in the round (a CI run once lost one to a short time limit).
  const state = await t.db.selectFrom('sync_state').select('last_error').executeTakeFirst();
  expect(state?.last_error ?? null).toBeNull();
  t.clock.offset += MINUTE;
}

async function seed(t: TestApp) {
  // The clock stands still but for the minutes the rounds add: the streams' time-weighted
  // figures must not depend on how long a busy machine takes over each round.
  t.clock.freeze();
  const admin = await t.sharedAdmin();
  const add = async (name: string, channel: string, v: number) => {
    const res = await admin.post('/api/streamers?admin=1', { name, provider_a: channel });
    await admin.put(`/api/streamers?id=${res.body.id}`, { r: { s: v, g: v, a: v, v, n: v, ns: v, o: v } });
    return res.body.id as number;
  };
  await add('Quiet One', 'quietone', 9);
  sid = await add('History Host', 'histhost', 5);
  const since = new Date(t.clock.now().getTime() - 30 * MINUTE).toISOString();
  const seen = (viewers: number, game: string, at = since): Stream => ({
    game,
    title: `Evening ${game}`,
    viewers,
    since: at,
  });
  // A first stream: three checks, the game changing, then offline by the second-wave rule.
  for (const [viewers, game] of [
    [120, 'Chess'],
    [150, 'Chess'],
    [90, 'Go'],
  ] as const) {
    live.a.live.set('histhost', seen(viewers, game));
    await round(t);
  }
  live.a.live.delete('histhost');
  await round(t);
  await round(t);
  t.clock.offset += 10 * MINUTE;
  // A second one, live now.
  const again = t.clock.now().toISOString();
  live.a.live.set('histhost', seen(200, 'Go', again));
  await round(t);
  live.a.live.set('histhost', seen(210, 'Go', again));
  await round(t);
}

describe.runIf(runBrowser(import.meta.url))('stream history on the page', () => {
  const env = useBrowser(seed, () => live.env());

  it.each([
    { phone: true, dark: false, lang: 'en' as const },
    { phone: false, dark: true, lang: 'cs' as const },
  ])(
    'the streamer page shows the last 30 days and each stream with its chart and table (%o)',
    async (opts) => {
      const en = opts.lang === 'en';
      const { page, context } = await newPage(env, opts);
      await page.goto(`${env.base}/s/${sid}`, { waitUntil: 'domcontentloaded' });
      const block = page.locator('section.streams');
      await block.getByRole('heading', { name: en ? 'Last 30 days' : 'Posledních 30 dní' }).waitFor();
      const figure = (term: string) => block.locator('.stats-30d div', { hasText: term }).locator('dd');
      expect(await figure(en ? 'Streams' : 'Streamy').textContent()).toBe('2');
      // 32 minutes and 1 minute: 0.55 h, to one decimal half up.
      expect(await figure(en ? 'Hours streamed' : 'Odstreamované hodiny').textContent()).toBe(
        en ? '0.6' : '0,6',
      );
      expect(await figure(en ? 'Average viewers' : 'Průměr diváků').textContent()).toBe('154');
      expect(await figure(en ? 'Peak viewers' : 'Nejvíc diváků').textContent()).toBe('210');
      expect(await figure(en ? 'Top game' : 'Nejčastější hra').textContent()).toBe('Go');

      const items = block.locator('.stream-list > li');
      await expect.poll(() => items.count()).toBe(2);
      expect(await items.nth(0).locator('.live-badge').count()).toBe(1);
      expect(await items.nth(1).locator('.live-badge').count()).toBe(0);
      expect(await items.nth(1).textContent()).toContain('Chess, Go');
      const chart = items.nth(1).getByRole('img');
      expect(await chart.getAttribute('aria-label')).toBe(
        en
          ? 'Viewers during the stream: 3 checks, 120 on average, 150 at the peak'
          : 'Diváci během streamu: 3 kontroly, průměrně 120, nejvíc 150',
      );
      await items
        .nth(1)
        .getByText(en ? 'Viewers as a table' : 'Diváci v tabulce')
        .click();
      const cells = items.nth(1).locator('table tbody tr td:nth-child(2)');
      await expect.poll(() => cells.allTextContents()).toEqual(['120', '150', '90']);
      // Issue 45, week 18: the chart has its axes and labels: 0 to the peak, the first and last check.
      const chart2 = items.nth(1).locator('figure.chart');
      expect(await chart2.locator('.chart-y span').allTextContents()).toEqual(['150', '0']);
      expect(await chart2.locator('svg .axis').count()).toBe(1);
      const times = await items.nth(1).locator('table tbody tr td:nth-child(1)').allTextContents();
      expect(await chart2.locator('.chart-x time').allTextContents()).toEqual([times[0], times.at(-1)]);
      expect(await chart2.locator('.chart-x').textContent()).toContain(en ? 'Viewers' : 'Diváci');
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(opts.phone ? 375 : 1366);
      await axe(env, page, `stream history ${JSON.stringify(opts)}`);
      await shot(page, `stream-history-${opts.phone ? 'phone' : 'desktop'}`);
      await context.close();
    },
    SLOW,
  );

  it(
    'the ranking sorts by hours streamed',
    async () => {
      const { page, context } = await newPage(env, { lang: 'en' });
      await page.goto(`${env.base}/`, { waitUntil: 'domcontentloaded' });
      const names = page.locator('.row .name');
      await expect.poll(() => names.first().textContent()).toContain('Quiet One');
      await page.getByLabel('Sort by').selectOption({ label: 'Hours streamed (30 days)' });
      await expect.poll(() => names.first().textContent()).toContain('History Host');
      // Issue 45, week 18: sorted by hours, each row shows its hours (0.55 h: 0.6, half up).
      const rows = page.locator('.row');
      expect(await rows.first().locator('.hours').textContent()).toBe('0.6 h streamed in 30 days');
      expect(await rows.nth(1).locator('.hours').textContent()).toBe('0.0 h streamed in 30 days');
      await page.getByLabel('Sort by').selectOption({ label: 'Total' });
      await expect.poll(() => page.locator('.row .hours').count()).toBe(0);
      await axe(env, page, 'ranking sorted by hours');
      await context.close();
    },
    SLOW,
  );
});
