import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { inView, newPage, runBrowser, signIn, useBrowser } from './browser.ts';

/** Issue 27: the page without a reload (one EventSource), and the bell. */
let sid = 0;
let unrated = 0;
async function seed(t: TestApp) {
  sid = await t.streamer('Live Streamer', { s: 6, g: 6 });
  unrated = await t.streamer('Soon Rated');
  await t.client().post('/api/comments', { streamer_id: sid, body: 'Already here', author: 'Fan' });
}

describe.runIf(runBrowser(import.meta.url))('live updates in the page', () => {
  const env = useBrowser(seed);

  it('a comment posted in a second page appears in the first as a pill, then in the list', async () => {
    const first = await newPage(env, { lang: 'en' });
    const second = await newPage(env, { lang: 'en' });
    try {
      // The DOM, then the load polled: on a busy machine the load event may come late.
      await first.page.goto(`${env.base}/s/${sid}`, { waitUntil: 'domcontentloaded' });
      await second.page.goto(`${env.base}/s/${sid}`, { waitUntil: 'domcontentloaded' });
      const bodies = first.page.locator('.comments .comment-body');
      await expect.poll(() => bodies.count(), { timeout: 20_000 }).toBe(1);
      await expect
        .poll(() => first.page.evaluate(() => document.readyState), { timeout: 20_000 })
        .toBe('complete');
      // The stream is open before the comment is posted.
      await expect.poll(() => env.t.app.eventStreams.size, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
      await second.page.getByLabel('Your name (optional)').fill('Visitor');
      await second.page.getByLabel('Comment', { exact: true }).fill('Hello from the other tab');
      await second.page.getByRole('button', { name: 'Post comment' }).click();
      const pill = first.page.getByRole('button', { name: '1 new comment' });
      await pill.waitFor();
      expect(await bodies.count()).toBe(1); // offered, not jumped to
      await pill.click();
      await expect.poll(() => bodies.first().textContent()).toBe('Hello from the other tab');
      expect(await pill.count()).toBe(0);
    } finally {
      // Closed even when a step fails, so that no stream of this test stays open for the next.
      await first.context.close();
      await second.context.close();
    }
  });

  it("a visitor's page of a streamer awaiting rating shows the streamer once it is rated, without a reload", async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    try {
      await page.goto(`${env.base}/s/${unrated}`, { waitUntil: 'domcontentloaded' });
      await page.getByRole('heading', { level: 1, name: 'Awaiting rating' }).waitFor();
      // The ranking's stream (the streamer's own answers 404 to a visitor while it is unrated).
      await expect.poll(() => env.t.app.eventStreams.size, { timeout: 20_000 }).toBe(1);
      const admin = await env.t.sharedAdmin();
      const put = await admin.put(`/api/streamers?id=${unrated}`, { name: 'Soon Rated', r: { s: 7, g: 8 } });
      expect(put.status, put.text).toBe(200);
      await page.getByRole('heading', { level: 1, name: 'Soon Rated' }).waitFor();
      expect(await page.getByRole('heading', { name: 'Awaiting rating' }).count()).toBe(0);
      // Its own events now: a comment posted elsewhere is offered.
      await env.t
        .client()
        .post('/api/comments', { streamer_id: unrated, body: 'Welcome aboard', author: 'Fan' });
      await page.getByRole('button', { name: '1 new comment' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('after a network drop the page connects again and new comments appear as before', async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    try {
      await page.goto(`${env.base}/s/${sid}`, { waitUntil: 'domcontentloaded' });
      await expect.poll(() => env.t.app.eventStreams.size, { timeout: 20_000 }).toBe(1);
      // The network goes: every connection to the service is cut, and the browser is offline.
      await context.setOffline(true);
      env.t.app.server.closeAllConnections();
      await expect.poll(() => env.t.app.eventStreams.size).toBe(0);
      // Back online, the page opens a new stream, which starts with a reset: the page loads its
      // comments again. A comment posted before that load is in the list it loads (no pill), so
      // the test posts once it is done.
      const reloaded = page.waitForResponse((r) => r.url().includes('/api/comments?'), { timeout: 30_000 });
      await context.setOffline(false);
      await reloaded;
      await expect.poll(() => env.t.app.eventStreams.size, { timeout: 20_000 }).toBe(1);
      await env.t.client().post('/api/comments', { streamer_id: sid, body: 'After the drop', author: 'Fan' });
      await page.getByRole('button', { name: '1 new comment' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('the bell counts a reply to my comment and marks all read (Czech)', async () => {
    const { page, context } = await newPage(env, { lang: 'cs' });
    await signIn(env, page, 'provider_a');
    await page.goto(`${env.base}/s/${sid}`);
    await page.getByLabel('Komentář', { exact: true }).fill('Můj komentář');
    await page.getByRole('button', { name: 'Odeslat komentář' }).click();
    // The comment as the service stored it, once the page's POST is answered.
    const stored = async () =>
      (
        (await env.t.client().get(`/api/comments?streamer_id=${sid}`)).body as { id: number; body: string }[]
      ).find((c) => c.body === 'Můj komentář');
    await expect.poll(stored, { timeout: 10_000 }).toBeDefined();
    const mine = (await stored())!;
    await env.t
      .client()
      .post('/api/comments', { streamer_id: sid, body: 'Odpověď', author: 'Pepa', reply_to: mine.id });
    const count = page.locator('.bell .count');
    await expect.poll(() => count.textContent(), { timeout: 10_000 }).toBe('1');
    await page.locator('.bell summary').click();
    await page
      .getByRole('link', { name: 'Pepa odpověděl(a) na váš komentář u streamera Live Streamer' })
      .waitFor();
    await page.getByRole('button', { name: 'Označit vše jako přečtené' }).click();
    await expect.poll(() => count.count()).toBe(0);
    await context.close();
  });

  it('a notification opens its streamer page at the reply, also below the first page of comments', async () => {
    const busy = await env.t.streamer('Busy Streamer', { s: 5, g: 5 });
    const { page, context } = await newPage(env, { lang: 'en' });
    try {
      await signIn(env, page, 'provider_a');
      await page.goto(`${env.base}/s/${busy}`);
      await page.getByLabel('Comment', { exact: true }).fill('My early take');
      await page.getByRole('button', { name: 'Post comment' }).click();
      const mine = async () =>
        (
          (await env.t.client().get(`/api/comments?streamer_id=${busy}`)).body as {
            id: number;
            body: string;
          }[]
        ).find((c) => c.body === 'My early take');
      await expect.poll(mine, { timeout: 10_000 }).toBeDefined();
      const reply = (
        await env.t.client().post('/api/comments', {
          streamer_id: busy,
          body: 'A late answer',
          author: 'Pepa',
          reply_to: (await mine())?.id,
        })
      ).body as { id: number };
      // More than a page of newer comments: the thread is on the second page, newest first.
      for (let i = 1; i <= 22; i++) {
        await env.t
          .client()
          .post('/api/comments', { streamer_id: busy, body: `Chatter ${i}`, author: 'Fan' });
      }
      await page.goto(`${env.base}/`);
      await page.locator('.bell summary').click();
      await page.getByRole('link', { name: 'Pepa replied to your comment on Busy Streamer' }).click();
      await expect.poll(() => page.url()).toMatch(new RegExp(`/s/${busy}[^#]*#c${reply.id}$`));
      await expect.poll(() => inView(page, `c${reply.id}`)).toBe(true);
      // Focused, so marked on the screen and read out.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe(`c${reply.id}`);
    } finally {
      await context.close();
    }
  });
});
