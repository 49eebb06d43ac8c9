import { describe, expect, it } from 'vitest';
import { axe, newPage, runBrowser, shot, signIn, useBrowser } from './browser.ts';

describe.runIf(runBrowser)('the web page for visitors', () => {
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
      .poll(() => page.locator('.comment-body').last().textContent())
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

  it('users sign in through each provider, see who they are, and sign out', async () => {
    for (const [provider, name] of [
      ['provider_a', 'TwitchDev'],
      ['provider_b', 'KickUser'],
    ] as const) {
      const { page, context } = await newPage(env);
      await page.goto(env.base + '/');
      await page
        .getByRole('link', {
          name: provider === 'provider_a' ? 'Přihlásit přes Twitch' : 'Přihlásit přes Kick',
        })
        .click();
      await page.waitForURL(`${env.base}/`);
      await expect.poll(() => page.locator('.who').textContent()).toContain(name);
      await page.getByRole('link', { name: 'Odhlásit' }).click();
      await page.waitForURL(`${env.base}/`);
      await page.getByRole('link', { name: 'Přihlásit přes Twitch' }).waitFor();
      await context.close();
    }
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
