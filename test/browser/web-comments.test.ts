import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { axe, inView, newPage, runBrowser, shot, signIn, useBrowser } from './browser.ts';

let sid = 0;
/** The streamer the fake Twitch's `twitchdev` speaks for, with three comments to pin and order. */
let pinSid = 0;
async function seed(t: TestApp) {
  sid = await t.streamer('Chatty Streamer', { s: 8, g: 7 });
  const admin = await t.sharedAdmin();
  pinSid = (await admin.post('/api/streamers?admin=1', { name: 'Twitch Dev', provider_a: 'twitchdev' })).body
    .id;
  await admin.put(`/api/streamers?id=${pinSid}`, { r: { s: 8, g: 7, a: 6, v: 5, n: 4, ns: 3, o: 2 } });
  const ids: Record<string, number> = {};
  for (const body of ['Old favourite', 'Middle one', 'Newest words']) {
    ids[body] = (
      await t.client().post('/api/comments', { streamer_id: pinSid, body, author: 'Fan' })
    ).body.id;
  }
  for (let i = 0; i < 2; i++) {
    const fan = await t.signedIn(await t.user());
    await fan.put(`/api/comments?id=${ids['Middle one']}&like=1`, { liked: true });
  }
  for (let i = 1; i <= 24; i++) {
    await t.client().post('/api/comments', { streamer_id: sid, body: `Comment number ${i}`, author: 'Fan' });
  }
  await t.client().post('/api/comments', {
    streamer_id: sid,
    body: 'See https://example.com/clip?t=1. Not javascript:alert(1) though',
    author: 'Linker',
  });
}

describe.runIf(runBrowser(import.meta.url))('comments as people know them', () => {
  const env = useBrowser(seed);

  it('newest first with load more, oldest first, relative times with the exact one on hover, safe links', async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    await page.goto(`${env.base}/s/${sid}`);
    const bodies = page.locator('.comments .comment-body');
    await expect.poll(() => bodies.count()).toBe(20);
    expect(await bodies.first().textContent()).toContain('See https://example.com/clip?t=1.');
    const link = bodies.first().getByRole('link');
    expect(await link.getAttribute('href')).toBe('https://example.com/clip?t=1');
    expect(await link.getAttribute('rel')).toBe('nofollow ugc noopener');
    expect(await bodies.first().getByRole('link').count()).toBe(1);
    const time = page.locator('.comments time').first();
    expect(await time.textContent()).toMatch(/now|minute|min/);
    expect(await time.getAttribute('title')).toMatch(/\d{4}/);

    await page.getByRole('button', { name: 'Load older comments' }).click();
    await expect.poll(() => bodies.count()).toBe(25);
    expect(await bodies.last().textContent()).toBe('Comment number 1');
    expect(await page.getByRole('button', { name: 'Load older comments' }).count()).toBe(0);

    await page.getByLabel('Order').selectOption('oldest');
    await expect.poll(() => bodies.first().textContent()).toBe('Comment number 1');
    await page.getByRole('button', { name: 'Show more comments' }).click();
    await expect.poll(() => bodies.count()).toBe(25);
    await context.close();

    const cs = await newPage(env, { lang: 'cs' });
    await cs.page.goto(`${env.base}/s/${sid}`);
    await expect.poll(() => cs.page.locator('.comments time').first().textContent()).toMatch(/nyní|min/);
    await cs.context.close();
  });

  it('a comment of stacked combining marks stays inside its card; the page does not scroll sideways (phone)', async () => {
    const marked = await env.t.streamer('Marked Streamer', { s: 5 });
    const body = `Z${'\u0336\u0337\u0338\u0489'.repeat(240)} and words after`;
    const res = await env.t.client().post('/api/comments', { streamer_id: marked, body, author: 'Troll' });
    expect(res.status).toBe(201);
    const { page, context } = await newPage(env, { phone: true, lang: 'en' });
    await page.goto(`${env.base}/s/${marked}`);
    const comment = page.locator('.comments .comment-body').first();
    await expect.poll(() => comment.textContent()).toContain('and words after');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const card = await page.locator('.comments').first().boundingBox();
    const box = await comment.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(card!.x + card!.width);
    await shot(page, 'comment-marks-phone');
    await context.close();
  });

  it('an address naming a comment older than the first page opens the page scrolled to it (phone)', async () => {
    const list = (await env.t.client().get(`/api/comments?streamer_id=${sid}`)).body as {
      id: number;
      body: string;
    }[];
    const oldest = list.find((c) => c.body === 'Comment number 1');
    if (!oldest) throw new Error('no oldest comment');
    const { page, context } = await newPage(env, { lang: 'en', phone: true });
    await page.goto(`${env.base}/s/${sid}#c${oldest.id}`);
    await expect.poll(() => inView(page, `c${oldest.id}`)).toBe(true);
    await context.close();
  });

  it('the author edits, hides and shows again their own comment; a moderator hides any', async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    await signIn(env, page, 'provider_a');
    await page.goto(`${env.base}/s/${sid}`);
    await page.getByLabel('Comment', { exact: true }).fill('My first take');
    // Sent by the keyboard, the focus stays on the button (a keyboard walk: disabled, it fell away).
    const post = page.getByRole('button', { name: 'Post comment' });
    await post.focus();
    await page.keyboard.press('Enter');
    const mine = page.locator('.comments > li', { hasText: 'My first take' });
    await mine.waitFor();
    expect(await post.evaluate((button) => button === document.activeElement)).toBe(true);
    // Said in words too, for whoever does not see the list (a keyboard walk), until the next text.
    await page.getByRole('status').filter({ hasText: 'Your comment is published.' }).waitFor();
    await mine.getByRole('button', { name: 'Edit' }).click();
    const editor = page.locator('.comments > li', { has: page.locator('textarea') });
    // Keyboard focus follows the edit: into its text, then back to Edit (a browser walk).
    const focused = () =>
      page.evaluate(() => document.activeElement?.textContent || document.activeElement?.tagName);
    await expect.poll(focused).toBe('TEXTAREA');
    await editor.locator('textarea').fill('My better take');
    await editor.getByRole('button', { name: 'Save' }).click();
    const edited = page.locator('.comments > li', { hasText: 'My better take' });
    await edited.getByText('edited').waitFor();
    await expect.poll(focused).toBe('Edit');
    // others' comments offer neither edit nor hide (but a like, a reply and a report)
    const other = page.locator('.comments > li', { hasText: 'Comment number 24' });
    expect(await other.getByRole('button', { name: /Edit|Hide/ }).count()).toBe(0);
    expect(await other.getByRole('button', { name: 'Report' }).count()).toBe(1);
    await shot(page, 'comments-author');
    await axe(env, page, 'comments');
    // The service lets the author show again what they hid (comments/policy.ts): the page offers it.
    // Hiding one's own comment asks first (issue 16, 4)
    await edited.getByRole('button', { name: 'Hide' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Hide' }).click();
    await edited.getByRole('button', { name: 'Show again' }).click();
    await edited.getByRole('button', { name: 'Hide' }).waitFor();
    const shown = (await env.t.client().get(`/api/comments?streamer_id=${sid}`)).body as {
      id: number;
      body: string;
    }[];
    expect(shown.some((c) => c.body === 'My better take')).toBe(true);
    // Hiding it hides the replies under it from others too: its confirmation says so (a visitors' walk).
    const myId = shown.find((c) => c.body === 'My better take')?.id;
    const replier = await env.t.signedIn(await env.t.user());
    expect(
      (await replier.post('/api/comments', { streamer_id: sid, body: 'A reply to it', reply_to: myId }))
        .status,
    ).toBe(201);
    await page.reload();
    await edited.getByText('A reply to it').waitFor();
    await edited.getByRole('button', { name: 'Hide' }).first().click();
    await page.getByRole('dialog').getByText('nor the 1 reply under it').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Hide' }).click();
    await edited.getByRole('button', { name: 'Show again' }).waitFor();
    await page.reload();
    await page.locator('.comments').waitFor();
    await expect.poll(() => page.locator('.comments').textContent()).not.toContain('My better take');
    await context.close();

    const mod = await newPage(env, { lang: 'en', dark: true });
    await signIn(env, mod.page, 'provider_b');
    const me = await env.t.db
      .selectFrom('users')
      .select('id')
      .where('provider', '=', 'provider_b')
      .executeTakeFirstOrThrow();
    await (await env.t.sharedAdmin()).put(`/api/users?id=${me.id}`, { is_mod: true });
    await mod.page.goto(`${env.base}/s/${sid}`);
    const hidden = mod.page.locator('.comments > li', { hasText: 'My better take' });
    await hidden.getByText('hidden').waitFor();
    const target = mod.page.locator('.comments > li', { hasText: 'Comment number 24' });
    await target.getByRole('button', { name: 'Hide' }).click();
    await target.getByRole('button', { name: 'Show again' }).waitFor();
    const list = (await env.t.client().get(`/api/comments?streamer_id=${sid}`)).body as { body: string }[];
    expect(list.some((c) => c.body === 'Comment number 24')).toBe(false);
    await shot(mod.page, 'comments-moderator-dark');
    await mod.context.close();
  });

  it('the streamer pins a comment: first with a mark in every order, Newest / Most liked; a visitor sees the mark only', async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    await signIn(env, page, 'provider_a');
    await page.goto(`${env.base}/s/${pinSid}`);
    const tops = page.locator('.comments > li');
    const first = () => tops.first().locator('.comment-body').first().textContent();
    await expect.poll(first).toBe('Newest words');
    await tops.filter({ hasText: 'Old favourite' }).getByRole('button', { name: 'Pin' }).click();
    await expect.poll(first).toBe('Old favourite');
    await tops.first().locator('.badge.pinned', { hasText: 'pinned' }).waitFor();
    expect(await page.locator('.badge.pinned').count()).toBe(1);
    // Most liked: the pinned comment stays first, then by likes.
    await page.getByLabel('Order').selectOption('top');
    await expect
      .poll(() => tops.locator(':scope > .comment .comment-body').allTextContents())
      .toEqual(['Old favourite', 'Middle one', 'Newest words']);
    // Pinning another unpins the first.
    await tops.filter({ hasText: 'Newest words' }).getByRole('button', { name: 'Pin' }).click();
    await expect.poll(first).toBe('Newest words');
    expect(await page.locator('.badge.pinned').count()).toBe(1);
    await axe(env, page, 'pinned comments');
    await shot(page, 'comments-pinned');
    await tops.first().getByRole('button', { name: 'Unpin' }).click();
    await expect.poll(first).toBe('Middle one');
    expect(await page.locator('.badge.pinned').count()).toBe(0);
    await page.getByLabel('Order').selectOption('newest');
    await context.close();

    const admin = await env.t.sharedAdmin();
    const list = (await admin.get(`/api/comments?streamer_id=${pinSid}`)).body as {
      id: number;
      body: string;
    }[];
    const middle = list.find((c) => c.body === 'Middle one')!;
    expect((await admin.put(`/api/comments?id=${middle.id}&pin=1`, { pinned: true })).status).toBe(200);
    const cs = await newPage(env, { lang: 'cs' });
    await cs.page.goto(`${env.base}/s/${pinSid}`);
    const csTops = cs.page.locator('.comments > li');
    await csTops.first().locator('.badge.pinned', { hasText: 'připnuto' }).waitFor();
    expect(await csTops.first().locator('.comment-body').textContent()).toBe('Middle one');
    expect(await cs.page.getByRole('button', { name: /Připnout|Odepnout/ }).count()).toBe(0);
    await cs.page.getByLabel('Řazení').selectOption('top');
    await expect.poll(() => csTops.first().locator('.comment-body').textContent()).toBe('Middle one');
    await cs.context.close();
  });

  it('older pages continue below the oldest comment that is not pinned: every comment once', async () => {
    const admin = await env.t.sharedAdmin();
    const list = (await env.t.client().get(`/api/comments?streamer_id=${sid}`)).body as {
      id: number;
      body: string;
    }[];
    const oldest = list.find((c) => c.body === 'Comment number 1')!;
    expect((await admin.put(`/api/comments?id=${oldest.id}&pin=1`, { pinned: true })).status).toBe(200);
    const { page, context } = await newPage(env, { lang: 'en' });
    await page.goto(`${env.base}/s/${sid}`);
    const bodies = page.locator('.comments .comment-body');
    await expect.poll(() => bodies.count()).toBe(21);
    expect(await bodies.first().textContent()).toBe('Comment number 1');
    await page.getByRole('button', { name: 'Load older comments' }).click();
    await expect.poll(() => bodies.count()).toBe(list.length);
    expect(new Set(await bodies.allTextContents()).size).toBe(list.length);
    expect(await bodies.first().textContent()).toBe('Comment number 1');
    await context.close();
    await admin.put(`/api/comments?id=${oldest.id}&pin=1`, { pinned: false });
  });
});
