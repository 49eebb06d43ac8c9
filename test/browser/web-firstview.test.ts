import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axe, type Env, newPage, runBrowser, shot, useBrowser } from './browser.ts';

/**
 * Issue 17, defects 15 and 8 (docs/decisions.md "The first view"): the ranking and a streamer
 * are in the page before its script runs, nothing moves when the script takes over, and
 * addresses that show no streamer say why in the site's own page.
 */

const SIZES = [
  [false, false],
  [true, false],
  [false, true],
  [true, true],
] as const;

/** Sums the page's layout shifts (those not caused by input) from the first paint on. */
const WATCH_SHIFTS = `
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts.push(e.value);
  }).observe({ type: 'layout-shift', buffered: true });
`;

async function settledShift(page: Page): Promise<number> {
  await page.waitForLoadState('networkidle');
  // What shifts a laid-out page once its requests are done: fonts, then the frames that
  // paint with them.
  return page.evaluate(async () => {
    await document.fonts.ready;
    for (let i = 0; i < 2; i++) await new Promise((frame) => requestAnimationFrame(frame));
    return (window as unknown as { __shifts: number[] }).__shifts.reduce((a, b) => a + b, 0);
  });
}

async function idOf(env: Env, name: string): Promise<number> {
  const all = await (await env.t.sharedAdmin()).get('/api/streamers?all=1');
  const found = (all.body as { id: number; name: string }[]).find((s) => s.name === name);
  if (!found) throw new Error(`no streamer ${name}`);
  return found.id;
}

const walked = runBrowser(import.meta.url);
/** One app and one browser for the file: no test here changes the sample streamers. */
const env = walked ? useBrowser() : ({} as Env);

describe.runIf(walked)('the first view', () => {
  it('home and streamer page: layout shift under 0.05 at 375 and 1366 px, light and dark, no second fetch', async () => {
    const alpha = await idOf(env, 'Alpha Gamer');
    for (const [phone, dark] of SIZES) {
      for (const [name, path] of [
        ['home', '/'],
        ['streamer', `/s/${alpha}-alpha-gamer`],
      ] as const) {
        const { page, context } = await newPage(env, { phone, dark });
        await context.addInitScript(WATCH_SHIFTS);
        const warnings: string[] = [];
        page.on('console', (m) => {
          if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text());
        });
        const lists: string[] = [];
        page.on('request', (r) => {
          // The list or the streamer again (the rating history and the streams are their own
          // answers, asked after).
          const url = new URL(r.url());
          if (
            url.pathname === '/api/streamers' &&
            !url.searchParams.has('history') &&
            !url.searchParams.has('streams')
          )
            lists.push(r.url());
        });
        await page.goto(env.base + path);
        const label = `${name} ${phone ? 375 : 1366} ${dark ? 'dark' : 'light'}`;
        expect(await settledShift(page), label).toBeLessThan(0.05);
        // The page took over the markup (no hydration mismatch) and did not ask for the list again.
        expect(
          warnings.filter((w) => /hydrat/i.test(w)),
          label,
        ).toEqual([]);
        expect(lists, label).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.dataset.theme), label).toBe(
          dark ? 'dark' : 'light',
        );
        expect(await page.evaluate(() => document.documentElement.scrollWidth), label).toBeLessThanOrEqual(
          phone ? 375 : 1366,
        );
        await shot(page, `firstview-${name}-${phone ? 375 : 1366}-${dark ? 'dark' : 'light'}`);
        if (phone && dark) await axe(env, page, label);
        await context.close();
      }
    }
  });

  it('the ranking and a streamer are in the HTML: shown with JavaScript off', async () => {
    const context = await env.browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 375, height: 740 },
    });
    const page = await context.newPage();
    await page.goto(env.base + '/');
    expect(await page.locator('.ranking .name').allTextContents()).toEqual([
      'Alpha Gamer',
      'Gamma Streams',
      'Beta Builder',
    ]);
    await shot(page, 'firstview-home-375-noscript');
    await page.locator('.ranking .name', { hasText: 'Gamma Streams' }).click();
    await page.getByRole('heading', { level: 1, name: /Gamma Streams/ }).waitFor();
    expect(await page.locator('.score-table').textContent()).toContain('/ 70');
    await shot(page, 'firstview-streamer-375-noscript');
    await context.close();
  });

  it('a Czech visitor loads no English words; choosing English loads them once, and it stays chosen', async () => {
    const { page, context } = await newPage(env, { phone: true });
    const english: string[] = [];
    page.on('request', (r) => {
      if (/\/assets\/en-[\w-]+\.js$/.test(new URL(r.url()).pathname)) english.push(r.url());
    });
    await page.goto(env.base + '/');
    await page.waitForLoadState('networkidle');
    expect(await page.locator('body').textContent()).toContain('Komunitní hodnocení streamerů');
    expect(english).toEqual([]);
    await page.locator('.lang-switch').selectOption('en');
    await page.getByText('Community ratings of streamers on seven criteria').first().waitFor();
    expect(english).toHaveLength(1);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.reload();
    await page.getByText('Community ratings of streamers on seven criteria').first().waitFor();
    expect(await page.locator('.lang-switch').inputValue()).toBe('en');
    await context.close();
  });

  it('after the script takes over, the ranking answers: search, then a streamer page and back', async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    await page.goto(env.base + '/');
    await page.getByPlaceholder('Filter by name').fill('gamma');
    await expect.poll(() => page.locator('.ranking .name').allTextContents()).toEqual(['Gamma Streams']);
    await page.locator('.ranking .name').first().click();
    await page.getByRole('heading', { level: 1, name: /Gamma Streams/ }).waitFor();
    await page.goBack();
    await page.locator('.ranking .name').first().waitFor();
    await context.close();
  });
});

describe.runIf(walked)('addresses that show no streamer (defect 8)', () => {
  it('a streamer not rated yet says it awaits rating, in Czech and English, at 375 and 1366 px', async () => {
    const delta = await idOf(env, 'Delta Unrated');
    for (const [phone, dark] of SIZES) {
      const lang = dark ? 'en' : 'cs';
      const { page, context } = await newPage(env, { phone, dark, lang });
      const res = await page.goto(`${env.base}/s/${delta}-delta-unrated`);
      expect(res?.status()).toBe(200);
      await page.getByText(lang === 'en' ? /awaiting rating/ : /na hodnocení teprve čeká/).waitFor();
      expect(await page.getByText(/does not exist|neexistuje/).count()).toBe(0);
      expect(await page.title()).toContain(lang === 'en' ? 'Awaiting rating' : 'Čeká na hodnocení');
      // The page has its heading, as every page does (axe's page-has-heading-one, a keyboard walk).
      await page
        .getByRole('heading', { level: 1, name: lang === 'en' ? 'Awaiting rating' : 'Čeká na hodnocení' })
        .waitFor();
      if (dark && !phone) await axe(env, page, 'a streamer awaiting rating');
      await shot(page, `firstview-pending-${phone ? 375 : 1366}-${dark ? 'dark' : 'light'}`);
      await context.close();
    }
  });

  it("an unknown address shows the site's own page with a way back; an unknown id says the streamer does not exist", async () => {
    for (const [phone, dark] of SIZES) {
      const lang = dark ? 'en' : 'cs';
      const { page, context } = await newPage(env, { phone, dark, lang });
      await context.addInitScript(WATCH_SHIFTS);
      const res = await page.goto(env.base + '/no/such/page');
      expect(res?.status()).toBe(404);
      await page
        .getByRole('heading', { level: 1, name: lang === 'en' ? 'Page not found' : 'Stránka nenalezena' })
        .waitFor();
      expect(await page.content()).not.toContain('"error"');
      expect(await settledShift(page)).toBeLessThan(0.05);
      await shot(page, `firstview-notfound-${phone ? 375 : 1366}-${dark ? 'dark' : 'light'}`);
      if (dark && !phone) await axe(env, page, 'not found page dark');
      await page
        .getByRole('link', { name: lang === 'en' ? 'Back to the ranking' : 'Zpět na žebříček' })
        .click();
      await page.locator('.ranking .name').first().waitFor();
      expect(new URL(page.url()).pathname).toBe('/');

      const gone = await page.goto(env.base + '/s/999999');
      expect(gone?.status()).toBe(404);
      await page
        .getByText(
          lang === 'en' ? 'This streamer does not exist (any more).' : 'Tento streamer neexistuje (už).',
        )
        .waitFor();
      await page
        .getByRole('heading', { level: 1, name: lang === 'en' ? 'Streamer not found' : 'Streamer nenalezen' })
        .waitFor();
      await context.close();
    }
  });
});
