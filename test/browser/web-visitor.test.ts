import { describe, expect, it } from 'vitest';
import { adminLogin, axe, newPage, runBrowser, shot, signIn, useBrowser } from './browser.ts';

describe.runIf(runBrowser(import.meta.url))('the web page for visitors', () => {
  const env = useBrowser();

  it('a visitor sees the ranking, opens a streamer with its chart, comments and suggests (Czech, desktop)', async () => {
    const { page, context } = await newPage(env);
    await page.goto(env.base + '/');
    const names = page.locator('.ranking .name');
    await expect
      .poll(() => names.allTextContents())
      .toEqual(['Alpha Gamer', 'Gamma Streams', 'Beta Builder']);
    await expect.poll(() => page.locator('.badge.live').count()).toBe(1);
    await shot(page, 'ranking-desktop');
    await axe(env, page, 'ranking');

    await names.first().click();
    await page.locator('.radar svg').waitFor();
    expect(await page.locator('.radar text').count()).toBe(7);
    await expect.poll(() => page.locator('.score-table').textContent()).toContain('Statistiky');

    // an error keeps what was typed and shows next to the form
    await page.getByLabel('Komentář', { exact: true }).fill('x');
    await page.getByRole('button', { name: 'Odeslat komentář' }).click();
    await expect.poll(() => page.locator('#comment-error').textContent()).toContain('příliš krátký');
    expect(await page.getByLabel('Komentář', { exact: true }).inputValue()).toBe('x');

    await page.getByLabel('Vaše jméno (nepovinné)').fill('Návštěvník');
    await page
      .getByLabel('Komentář', { exact: true })
      .fill('<img src=x onerror="document.title=1"> Super stream!');
    await page.getByRole('button', { name: 'Odeslat komentář' }).click();
    await expect
      .poll(() => page.locator('.comment-body').first().textContent())
      .toBe('<img src=x onerror="document.title=1"> Super stream!');
    expect(await page.locator('.comments img[src="x"]').count()).toBe(0);
    await shot(page, 'streamer-desktop');
    await axe(env, page, 'streamer');

    await page.getByRole('link', { name: 'Navrhnout' }).click();
    await page.getByLabel('Jméno streamera').fill('Epsilon Newbie');
    await page.getByRole('button', { name: 'Odeslat návrh' }).click();
    await expect.poll(() => page.locator('.success').textContent()).toContain('Epsilon Newbie');
    await page.getByLabel('Jméno streamera').fill('Alpha Gamer');
    await page.getByRole('button', { name: 'Odeslat návrh' }).click();
    await expect.poll(() => page.locator('#suggest-error').textContent()).toContain('už v katalogu');
    await axe(env, page, 'suggest');
    await context.close();
  });

  it('users sign in through each provider from a streamer page, return there (bug 4), and sign out', async () => {
    const alpha = (await env.t.client().get('/api/streamers')).body.find(
      (s: { name: string }) => s.name === 'Alpha Gamer',
    );
    for (const [provider, name] of [
      ['provider_a', 'TwitchDev'],
      ['provider_b', 'KickUser'],
    ] as const) {
      const { page, context } = await newPage(env);
      await page.goto(`${env.base}/s/${alpha.id}`);
      await page.waitForURL(`${env.base}/s/${alpha.id}-alpha-gamer`);
      await page.locator('.menu summary').click();
      await page
        .getByRole('link', {
          name: provider === 'provider_a' ? 'Přihlásit přes Twitch' : 'Přihlásit přes Kick',
        })
        .click();
      await page.waitForURL(`${env.base}/s/${alpha.id}-alpha-gamer`);
      await expect.poll(() => page.locator('.menu summary').textContent()).toContain(name);
      await page.locator('.menu summary').click();
      await page.getByRole('link', { name: 'Odhlásit' }).click();
      // Issue 17 bug 10: sign-out lands back on the page too.
      await page.waitForURL(`${env.base}/s/${alpha.id}-alpha-gamer`);
      await page.locator('.menu summary').click();
      await page.getByRole('link', { name: 'Přihlásit přes Twitch' }).waitFor();
      await context.close();
    }
    // only same-origin paths are returned to
    const res = await fetch(`${env.base}/api/oauth/login/provider_a?return=//evil.example/x`, {
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
  });

  it('bug 14: a short header on a phone; no administration link for visitors', async () => {
    const { page, context } = await newPage(env, { phone: true });
    await page.goto(env.base + '/');
    await page.locator('.ranking .name').first().waitFor();
    const height = await page.locator('header.header').evaluate((el) => el.getBoundingClientRect().height);
    // Two rows since issue 45 item 18 (the links get their own row, none hidden or clipped).
    expect(height).toBeLessThanOrEqual(100);
    expect(
      await page
        .locator('header nav')
        .getByRole('link', { name: /^(Admin|Správa)/ })
        .count(),
    ).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // The site's feed is named in its footer, and the page's router leaves the link to the browser
    // (a visitors' walk: it was only in the head's <link rel="alternate">).
    const feed = page.locator('footer').getByRole('link', { name: 'Nová hodnocení (Atom)' });
    expect(await feed.getAttribute('href')).toBe('/feed.xml');
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/feed.xml')),
      feed.click(),
    ]);
    expect(answer.headers()['content-type']).toMatch(/^application\/atom\+xml/);
    await page.goto(env.base + '/');
    await page.locator('.ranking .name').first().waitFor();
    await adminLogin(env, page);
    // Its name is the word it shows on a phone (issue 30, item 21).
    await page.locator('header nav').getByRole('link', { name: 'Správa', exact: true }).waitFor();
    await page.locator('.menu summary').click();
    expect(
      await page
        .locator('.menu-panel')
        .getByRole('link', { name: /Přihlásit přes/ })
        .count(),
    ).toBe(0);
    await shot(page, 'header-admin-phone');
    await context.close();
  });

  it('bug 2 and 12: the skip link stays on the page; navigation sets the title and moves focus', async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    await page.goto(env.base + '/');
    await expect.poll(() => page.title()).toBe('Streamer rating');
    await page.getByRole('link', { name: 'Alpha Gamer' }).click();
    await page.getByRole('heading', { name: /Alpha Gamer/ }).waitFor();
    await expect.poll(() => page.title()).toBe('Alpha Gamer – Streamer rating');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    const url = page.url();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await skip.focus();
    await page.keyboard.press('Enter');
    expect(page.url().replace(/#main$/, '')).toBe(url);
    await page.getByRole('heading', { name: /Alpha Gamer/ }).waitFor();
    await page.goBack(); // the #main fragment
    await page.goBack();
    await page.locator('.ranking .name').first().waitFor();
    // old hash links still work
    await page.goto(`${env.base}/#/s/1`);
    await page.waitForURL(/\/s\/1-/);
    await context.close();
  });

  it('sign-in errors show as a human message, never the raw code alone', async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    env.fake.b.failure = 'token_error';
    await signIn(env, page, 'provider_b').catch(() => undefined);
    await page.waitForURL((u) => u.pathname === '/');
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toContain('Kick did not accept the sign-in (error 400): Invalid request');
    expect(page.url()).not.toContain('auth_error');
    env.fake.b.failure = 'none';
    await page.goto(`${env.base}/?auth_error=provider_a_not_configured`);
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toContain('Sign-in with Twitch is not set up');
    await context.close();
  });
});
