import { describe, expect, it } from 'vitest';
import { adminPage, newPage, runBrowser, useBrowser } from './browser.ts';

/** Issue 11's walk: bugs 5, 6, 9, 10 and 13, each pinned here. */
describe.runIf(runBrowser(import.meta.url))('bugs found in the walk', () => {
  const env = useBrowser();
  const idOf = async (name: string) =>
    (
      (await (await env.t.sharedAdmin()).get('/api/streamers?all=1')).body as { id: number; name: string }[]
    ).find((s) => s.name === name)?.id;

  it('bug 5: the English page has no Czech or raw API text', async () => {
    const alpha = await idOf('Alpha Gamer');
    await env.t.client().post('/api/comments', { streamer_id: alpha, body: 'No name given here' });
    const { page, context } = await newPage(env, { lang: 'en' });
    await page.goto(`${env.base}/s/${alpha}`);
    await expect.poll(() => page.locator('.comments').textContent()).toContain('Anonymous');
    expect(await page.locator('.comments').textContent()).not.toContain('Anonym ');
    await context.close();
  });

  it('bug 13: the send button is disabled over 1000 characters', async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    await page.goto(`${env.base}/s/${await idOf('Alpha Gamer')}`);
    const body = page.getByLabel('Comment', { exact: true });
    await body.fill('x'.repeat(1300));
    expect(await page.getByRole('button', { name: 'Post comment' }).isDisabled()).toBe(true);
    await body.fill('x'.repeat(1000));
    expect(await page.getByRole('button', { name: 'Post comment' }).isDisabled()).toBe(false);
    await context.close();
  });

  it('bug 10: the thank-you names the stored name, not the typed markup', async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    await page.goto(`${env.base}/suggest`);
    await page.getByLabel('Streamer name').fill('<b>Omega</b>   Tagged');
    await page.getByRole('button', { name: 'Send suggestion' }).click();
    await expect.poll(() => page.locator('.success').textContent()).toContain('Omega Tagged');
    expect(await page.locator('.success').textContent()).not.toContain('<b>');
    await context.close();
  });

  it('bug 6 and 9: a double click adds once; an open editor keeps its row in place after saving', async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    await adminPage(env, page);
    let posts = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/api/streamers')) posts++;
    });
    await page.getByLabel('Streamer name').fill('Aaa First');
    await page.getByRole('button', { name: 'Add', exact: true }).dblclick();
    await expect.poll(() => page.locator('.success').textContent()).toContain('Aaa First');
    expect(posts).toBe(1);
    expect(await page.locator('.field-error').count()).toBe(0);

    const rows = page.locator('.admin-list > li .admin-row > a');
    // The list reloads after the success message: read it once the new streamer is in it.
    await rows.filter({ hasText: 'Aaa First' }).waitFor();
    const before = await rows.allTextContents();
    const row = page.locator('.admin-list > li', { hasText: 'Aaa First' });
    await row.getByRole('button', { name: 'Edit' }).click();
    await row.getByLabel('Statistics', { exact: true }).fill('9');
    await row.getByRole('button', { name: 'Save rating' }).click();
    await row.getByRole('status').waitFor();
    expect(await rows.allTextContents()).toEqual(before);
    await context.close();
  });
  it('bug 11 and live data: the Twitch link uses the channel field; avatar, viewers and live time show', async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    const since = new Date(Date.now() - 125 * 60_000).toISOString();
    // As live sync stores it (the page's first view comes with the HTML, not from a call).
    const live = { avatar: '/favicon.svg', viewers: 1234, live_since: since, provider_a: 'alpha_channel' };
    await env.t.db.updateTable('streamers').set(live).where('name', '=', 'Alpha Gamer').execute();
    env.t.app.database.changes.bump();
    await page.goto(env.base + '/');
    const row = page.locator('.ranking > li', { hasText: 'Alpha Gamer' });
    await expect.poll(() => row.locator('.badge.live').textContent()).toContain('1,234 watching');
    expect(await row.textContent()).toContain('live for 2 h 5 min');
    expect(await row.locator('img.avatar').getAttribute('src')).toBe('/favicon.svg');
    await row.getByRole('link', { name: 'Alpha Gamer' }).click();
    const channel = page.getByRole('link', { name: /on Twitch/ });
    expect(await channel.getAttribute('href')).toBe('https://www.twitch.tv/alpha_channel');
    // A list request still on its way (the page refreshes it) must not outlive the context.
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await context.close();
  });
});
