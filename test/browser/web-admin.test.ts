import { describe, expect, it } from 'vitest';
import { adminLogin, adminPage, axe, newPage, runBrowser, shot, signIn, useBrowser } from './browser.ts';

/** An empty site guides both roles; the administrator bans only after confirming. */
describe.runIf(runBrowser(import.meta.url))('an empty site and the administrator', () => {
  const env = useBrowser(async () => undefined);

  it('guides a visitor to suggest and the administrator to add, import or run the demo', async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    await page.goto(env.base + '/');
    await page.getByRole('heading', { name: 'No rated streamers yet' }).waitFor();
    await page.getByRole('link', { name: 'Suggest a streamer' }).click();
    await page.waitForURL(`${env.base}/suggest`);
    await axe(env, page, 'empty site suggest');

    await adminLogin(env, page);
    await page.goto(env.base + '/');
    await page.getByRole('heading', { name: 'Your ranking is empty' }).waitFor();
    expect(await page.locator('.empty-site').textContent()).toContain('npx streamer-rating demo');
    await shot(page, 'empty-site-admin');
    await context.close();
  });

  it('bans a user only after confirming; searches teams', async () => {
    const user = await newPage(env, { lang: 'en' });
    await signIn(env, user.page, 'provider_a');
    await user.context.close();
    const admin = await env.t.sharedAdmin();
    await admin.post('/api/rater_groups', { name: 'Morning Crew' });
    await admin.post('/api/rater_groups', { name: 'Night Owls' });

    const { page, context } = await newPage(env, { lang: 'en' });
    await adminPage(env, page);
    await page.getByRole('link', { name: 'Users' }).click();
    const row = page.locator('.admin-row', { hasText: 'TwitchDev' });
    await row.getByLabel('Banned').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(await row.getByLabel('Banned').isChecked()).toBe(false);
    expect((await admin.get('/api/users?q=twitchdev')).body[0].banned).toBe(false);
    await row.getByLabel('Banned').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Ban' }).click();
    await expect.poll(async () => (await admin.get('/api/users?q=twitchdev')).body[0].banned).toBe(true);

    await page.getByRole('link', { name: 'Teams' }).click();
    await page.locator('.team', { hasText: 'Night Owls' }).waitFor();
    await page.getByPlaceholder('Search teams, streamers or members').fill('morning');
    await expect.poll(() => page.locator('.team').count()).toBe(1);
    await context.close();
  });
  it('reviews visitor suggestions first, searches the list, and renames a streamer', async () => {
    await env.t.client().post('/api/streamers', { name: 'Visitor Pick', submitter: 'fan' });
    await env.t.streamer('Admin Added');
    const { page, context } = await newPage(env, { lang: 'en' });
    await adminPage(env, page);
    const queue = page.locator('section.queue');
    await queue.getByRole('heading', { name: /Suggestions to review/ }).waitFor();
    expect(await queue.locator('.admin-row > a').allTextContents()).toEqual(['Visitor Pick']);
    await page.getByPlaceholder('Filter by name').fill('admin add');
    await expect.poll(() => page.locator('.admin-row > a').allTextContents()).toEqual(['Admin Added']);
    await page.getByPlaceholder('Filter by name').fill('');
    const row = page.locator('.admin-list > li', { hasText: 'Visitor Pick' });
    await row.getByRole('button', { name: 'Rename' }).click();
    await row.getByLabel('New name').fill('Visitor Pick Renamed');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => page.locator('.admin-row > a').allTextContents())
      .toContain('Visitor Pick Renamed');
    await shot(page, 'admin-queue');
    await axe(env, page, 'admin queue');
    await context.close();
  });
});
