import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDiscord, startFakeDiscord } from '../helpers/fake-discord.ts';
import { adminPage, axe, newPage, runBrowser, shot, useBrowser } from './browser.ts';

/** Issue 20 in the browser: the administrator connects Discord; a streamer copies a badge. */
describe.runIf(runBrowser(import.meta.url))('Discord and badges on the page', () => {
  let discord: FakeDiscord;
  beforeAll(async () => {
    discord = await startFakeDiscord();
  });
  afterAll(() => discord.close());
  const env = useBrowser(undefined, () => ({ DISCORD_API_URL: discord.apiUrl }));

  it('the administrator connects a channel, test-sends, sees why it was disabled, and disconnects it', async () => {
    const hook = discord.webhook();
    const { page, context } = await newPage(env, { lang: 'en' });
    await adminPage(env, page);
    await page.getByRole('link', { name: 'Discord' }).click();
    await page.getByRole('heading', { name: 'Discord notifications' }).waitFor();
    await page.getByLabel('Webhook URL').fill('https://example.org/not-a-webhook');
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByRole('alert').getByText('That is not a Discord webhook URL').waitFor();

    await page.getByLabel('Webhook URL').fill(hook.url);
    await page.getByLabel('Streamers going live').uncheck();
    await page.getByRole('button', { name: 'Connect' }).click();
    const item = page.locator('.webhook');
    await item.getByText(`${hook.id}/${hook.token.slice(0, 6)}…`).waitFor();
    expect(await page.content()).not.toContain(hook.token.slice(6));
    expect(await item.getByLabel('Streamers going live').isChecked()).toBe(false);
    expect(await item.getByLabel('New and changed ratings').isChecked()).toBe(true);
    await shot(page, 'discord-admin');
    await axe(env, page, 'discord admin');
    // Ticked by the keyboard, an event's box saves at once and keeps the focus (a keyboard walk:
    // disabled while the list was saved, every box dropped it to the page's start).
    const live = item.getByLabel('Streamers going live');
    await live.focus();
    await page.keyboard.press('Space');
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await live.isChecked()).toBe(true);
    expect(await live.evaluate((e) => e === document.activeElement)).toBe(true);

    await item.getByRole('button', { name: 'Send a test message' }).click();
    await item.getByText('The test message was delivered').waitFor({ timeout: 15_000 });
    expect(discord.delivered(hook.id)).toHaveLength(1);

    // Discord deletes the webhook; the next event disables it, and the page says why.
    discord.remove(hook.id);
    await env.t.client().post('/api/streamers', { name: 'Suggested While Gone' });
    const admin = await env.t.sharedAdmin();
    await expect
      .poll(async () => (await admin.get('/api/settings')).body.discord_webhooks[0].disabled_reason, {
        timeout: 30_000,
      })
      .toBe('Discord answered 404: Unknown Webhook');
    await page.reload();
    await page.getByText('Nothing is sent here any more: Discord answered 404: Unknown Webhook').waitFor();
    expect(await item.getByRole('button', { name: 'Send a test message' }).isDisabled()).toBe(true);

    await item.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();
    await page.getByText('No Discord channel is connected yet.').waitFor();
    expect((await admin.get('/api/settings')).body.discord_webhooks).toEqual([]);
    await context.close();
  });

  for (const [phone, dark] of [
    [true, true],
    [false, false],
  ] as const) {
    it(`the Discord tab in Czech at ${phone ? '375' : '1366'} px, ${dark ? 'dark' : 'light'}`, async () => {
      const admin = await env.t.sharedAdmin();
      await admin.put('/api/settings', {
        discord_webhooks: [{ url: discord.webhook().url, events: ['rated'] }],
      });
      const { page, context } = await newPage(env, { phone, dark });
      await adminPage(env, page);
      await page.goto(`${env.base}/admin/discord`);
      await page.getByRole('heading', { name: 'Oznámení na Discord' }).waitFor();
      await page.getByRole('button', { name: 'Poslat zkušební zprávu' }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      expect(overflow).toBe(false);
      await shot(page, `discord-admin-cs-${phone ? 'phone' : 'desktop'}-${dark ? 'dark' : 'light'}`);
      await axe(env, page, 'discord admin cs');
      await admin.put('/api/settings', { discord_webhooks: [] });
      await context.close();
    });
  }

  it('a streamer page offers the badge (SVG and PNG) with the HTML and Markdown to copy', async () => {
    const { page, context } = await newPage(env, { phone: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.base });
    const list = (await env.t.client().get('/api/streamers')).body as { id: number; name: string }[];
    const alpha = list.find((s) => s.name === 'Alpha Gamer')!;
    await page.goto(`${env.base}/s/${alpha.id}`);
    const section = page.locator('.badge-share');
    // Collapsed behind "Share" (issue 30, item 19): open, it pushed the comments ~1,000 px down.
    const share = section.getByText('Sdílet odznak');
    await share.waitFor();
    await page.getByRole('heading', { name: 'Komentáře' }).waitFor();
    const height = await section.evaluate((el) => el.getBoundingClientRect().height);
    expect(height).toBeLessThan(100);
    expect(await section.getByRole('heading', { name: 'Odznak pro váš kanál' }).isVisible()).toBe(false);
    await axe(env, page, 'badge share collapsed');
    await share.click();
    await section.getByRole('heading', { name: 'Odznak pro váš kanál' }).waitFor();
    const img = section.getByRole('img', { name: 'Alpha Gamer: hodnocení' });
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(50);
    expect(await section.getByRole('link', { name: /Stáhnout PNG/ }).getAttribute('href')).toBe(
      `${env.base}/badge/${alpha.id}.png`,
    );
    await section.getByRole('button', { name: 'Kopírovat: HTML pro web' }).click();
    await section.getByRole('button', { name: 'Zkopírováno' }).waitFor();
    const html = await page.evaluate(() => navigator.clipboard.readText());
    expect(html).toBe(
      `<a href="${env.base}/s/${alpha.id}-alpha-gamer"><img src="${env.base}/badge/${alpha.id}.svg" alt="Alpha Gamer: hodnocení" height="20"></a>`,
    );
    await section.getByRole('button', { name: 'Kopírovat: Markdown' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `[![Alpha Gamer: hodnocení](${env.base}/badge/${alpha.id}.svg)](${env.base}/s/${alpha.id}-alpha-gamer)`,
    );
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await shot(page, 'badge-share-phone');
    await axe(env, page, 'badge share');

    // An unrated streamer has no badge to offer, even to the administrator, who sees its page.
    const all = (await (await env.t.sharedAdmin()).get('/api/streamers?all=1')).body as {
      id: number;
      name: string;
    }[];
    const delta = all.find((s) => s.name === 'Delta Unrated')!;
    await adminPage(env, page);
    await page.goto(`${env.base}/s/${delta.id}`);
    await page.getByRole('heading', { name: 'Delta Unrated' }).waitFor();
    await page.getByRole('heading', { name: 'Komentáře' }).waitFor();
    expect(await page.locator('.badge-share').count()).toBe(0);
    await context.close();
  });
});
