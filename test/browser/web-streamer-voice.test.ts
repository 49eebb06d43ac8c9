import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { adminPage, axe, newPage, runBrowser, shot, signIn, useBrowser } from './browser.ts';

/** Issue 26 on the page: the verified mark, the "this is my channel" panel, the reply. */
let sid = 0;
async function seed(t: TestApp) {
  const admin = await t.sharedAdmin();
  // The fake Twitch signs in as `twitchdev` (test/helpers/fake-providers.ts).
  const res = await admin.post('/api/streamers?admin=1', { name: 'Twitch Dev', provider_a: 'twitchdev' });
  sid = res.body.id;
  await admin.put(`/api/streamers?id=${sid}`, { r: { s: 8, g: 7, a: 6, v: 5, n: 4, ns: 3, o: 2 } });
}

describe.runIf(runBrowser(import.meta.url))('streamers speak for themselves', () => {
  const env = useBrowser(seed);

  it.each([
    { phone: true, dark: false },
    { phone: false, dark: true },
  ])('the streamer replies from their own page, the draft survives a reload (%o)', async (opts) => {
    const { page, context } = await newPage(env, { lang: 'en', ...opts });
    await signIn(env, page, 'provider_a');
    await page.goto(`${env.base}/s/${sid}`);
    await page.getByRole('heading', { name: 'This is my channel' }).waitFor();
    const box = page.getByLabel('Your reply to the rating');
    await box.fill('<b>Thanks</b> for the fair rating');
    expect(await page.locator('#voice-counter').textContent()).toContain('33 / 1000');
    await page.reload();
    await expect
      .poll(() => page.getByLabel('Your reply to the rating').inputValue())
      .toContain('fair rating');
    await page.getByRole('button', { name: 'Save the reply' }).click();
    const reply = page.locator('.streamer-reply');
    await reply.waitFor();
    expect(await reply.locator('.reply-body').textContent()).toBe('<b>Thanks</b> for the fair rating');
    expect(await reply.locator('b').count()).toBe(0);
    expect(await page.locator('h1 .badge.verified').count()).toBe(1);
    // Their own channel is not offered to follow; its followers are still counted. The button
    // would show once the page knows whether one follows: after that answer and a frame.
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/follows');
    await page.reload();
    await answered;
    await page.locator('.follow', { hasText: 'followers' }).waitFor();
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done(null))));
    expect(await page.getByRole('button', { name: 'Follow' }).count()).toBe(0);
    await axe(env, page, `streamer voice ${JSON.stringify(opts)}`);
    await shot(page, `streamer-voice-${opts.phone ? 'phone' : 'desktop'}`);
    await page.goto(`${env.base}/`);
    await page.locator('.row', { hasText: 'Twitch Dev' }).locator('.badge.verified').waitFor();
    await context.close();
  });

  it('a visitor sees the reply and, after the rating changed, the note saying so', async () => {
    const admin = await env.t.sharedAdmin();
    env.t.clock.offset += 120_000;
    await admin.put(`/api/streamers?id=${sid}`, { r: { s: 9, g: 9, a: 9, v: 9, n: 9, ns: 9, o: 9 } });
    const { page, context } = await newPage(env, { lang: 'cs' });
    await page.goto(`${env.base}/s/${sid}`);
    await page.locator('.streamer-reply .reply-outdated').waitFor();
    expect(await page.locator('.streamer-reply').textContent()).toContain('Hodnocení se od napsání');
    expect(await page.getByRole('heading', { name: 'Tohle je můj kanál' }).count()).toBe(0);
    await context.close();
  });
  it("staff remove a streamer's reply after the site's own question, not the browser's", async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    await adminPage(env, page);
    await page.goto(`${env.base}/s/${sid}`);
    const reply = page.locator('.streamer-reply');
    await reply.waitFor();
    const native: string[] = [];
    page.on('dialog', (d) => {
      native.push(d.message());
      void d.dismiss();
    });
    await reply.getByRole('button', { name: 'Remove the reply' }).click();
    const asked = page.getByRole('dialog', {
      name: "Remove the streamer's reply? They may write a new one.",
    });
    await asked.waitFor();
    await asked.getByRole('button', { name: 'Remove the reply' }).click();
    await expect.poll(() => reply.count()).toBe(0);
    expect(native).toEqual([]);
    const item = (await env.t.client().get(`/api/streamers?id=${sid}`)).body as { streamer_reply: unknown };
    expect(item.streamer_reply).toBeNull();
    await context.close();
  });
});
