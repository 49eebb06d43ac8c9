import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { asAdmin, axe, newPage, runBrowser, shot, signIn, useBrowser } from './browser.ts';

/** 55 rated streamers (the best first), one of them live, and one unrated. */
async function many(t: TestApp) {
  const admin = await t.sharedAdmin();
  for (let i = 0; i < 55; i++) {
    const name = i === 2 ? 'Zlatý Kůň' : `Streamer ${String(i + 1).padStart(2, '0')}`;
    const id = await t.streamer(name);
    const v = 10 - Math.floor(i / 6);
    await admin.put(`/api/streamers?id=${id}`, {
      r: { s: v, g: v, a: v, v: i === 40 ? 10 : v, n: v, ns: v, o: Math.max(0, v - (i % 6)) },
      reward: 50,
      ...(i === 7 ? { status: 'live', game: 'Chess', title: 'Live chess' } : {}),
    });
    if (i === 5) await t.client().post('/api/comments', { streamer_id: id, body: 'Skvělý stream!' });
    // One vote: the row says "too few votes (1 vote)", the longest audience line.
    if (i === 0) await (await t.signedIn(await t.user())).put(`/api/votes?streamer_id=${id}`, { score: 8 });
  }
  await t.streamer('Unrated Kick');
}

describe.runIf(runBrowser(import.meta.url))('the ranking', () => {
  const env = useBrowser(many);

  it('bug 3: search ignores diacritics and spaces, keeps real ranks, and says when nothing matches', async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    await page.goto(env.base + '/');
    await expect.poll(() => page.locator('.ranking > li').count()).toBe(50);
    // The list itself is not a live region (every row would be read out); one line says what is left.
    expect(await page.locator('.ranking').getAttribute('aria-live')).toBe(null);
    await page.getByPlaceholder('Filter by name').fill('zlaty kun');
    await expect.poll(() => page.locator('.ranking .name').allTextContents()).toEqual(['Zlatý Kůň']);
    await page.getByRole('status').filter({ hasText: 'Streamers listed: 1.' }).waitFor({ state: 'attached' });
    expect((await page.locator('.ranking .rank').first().textContent())?.trim()).toBe('Rank3');
    // Spaces and a channel's separators do not count: run together, or as a channel writes it.
    for (const query of ['zlatykun', 'Zlaty_Kun']) {
      await page.getByPlaceholder('Filter by name').fill(query);
      await expect.poll(() => page.locator('.ranking .name').allTextContents()).toEqual(['Zlatý Kůň']);
    }
    await page.getByPlaceholder('Filter by name').fill('nobody at all');
    await page.getByText('No streamer matches these filters.').waitFor();
    await context.close();
  });

  it('sorts by a criterion, filters live and platform, shows more past 50, and counts comments', async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    await page.goto(env.base + '/');
    await page.getByRole('button', { name: 'Show 5 more (of 55)' }).click();
    await expect.poll(() => page.locator('.ranking > li').count()).toBe(55);
    await page.getByLabel('Sort by').selectOption({ label: 'Extras' });
    await expect.poll(() => page.locator('.ranking .name').first().textContent()).toBe('Streamer 01');
    await page.getByLabel('Sort by').selectOption({ label: 'Comments' });
    await expect.poll(() => page.locator('.ranking .name').first().textContent()).toBe('Streamer 06');
    expect(await page.locator('.ranking > li').first().textContent()).toContain('1 comment');
    // By the audience: the one vote first, the rest by name, which a line says (not the rows alone),
    // announced when the sort changes: a polite live region, in the page before its words.
    expect(await page.getByText('in order of name').count()).toBe(0);
    const hint = page.locator('p.hint.live-line');
    const region = await hint.elementHandle();
    expect(await hint.getAttribute('aria-live')).toBe('polite');
    await page.getByLabel('Sort by').selectOption({ label: 'Ranked by the audience' });
    await page.getByText('Streamers without audience votes come last, in order of name.').waitFor();
    expect(await region.evaluate((p) => p.isConnected && p.textContent?.trim())).toBe(
      'Streamers without audience votes come last, in order of name.',
    );
    expect((await page.locator('.ranking .name').allTextContents()).slice(0, 3)).toEqual([
      'Streamer 01',
      'Streamer 02',
      'Streamer 04',
    ]);
    await page.getByLabel('Filter by name').fill('Streamer 1');
    await page
      .getByText('None of these streamers has audience votes yet, so they are in order of name.')
      .waitFor();
    await page.getByLabel('Filter by name').fill('Streamer 01');
    await expect.poll(() => page.locator('.ranking .name').allTextContents()).toEqual(['Streamer 01']);
    expect(await page.getByText('in order of name').count()).toBe(0);
    await page.getByLabel('Filter by name').fill('');

    await page.getByLabel('Live now').check();
    await expect.poll(() => page.locator('.ranking .name').allTextContents()).toEqual(['Streamer 08']);
    expect((await page.locator('.ranking .rank').first().textContent())?.trim()).toBe('Rank8');
    await page.getByLabel('Live now').uncheck();
    await page.getByLabel('Platform').selectOption({ label: 'Kick' });
    await page.getByText('No streamer matches these filters.').waitFor();
    // Loaded sorted by the audience (Back, a shared address), the line is there but not read out
    // as news: the page is read in order, and a live region would say it a second time.
    await page.goto(`${env.base}/?sort=audience`);
    await page.getByText('Streamers without audience votes come last, in order of name.').waitFor();
    expect(await page.locator('p.hint.live-line').getAttribute('aria-live')).toBe('off');
    await context.close();
  });

  it("staff's full list by the audience says that the streamers awaiting rating come after its order", async () => {
    const outside = 'Streamers awaiting rating are not in the audience ranking: they come after it.';
    const { page, context } = await newPage(env, { lang: 'en' });
    await asAdmin(env, context);
    await page.goto(`${env.base}/?sort=audience`);
    await page.getByLabel('Show all streamers with notes').check();
    await page.getByText(outside).waitFor();
    await page.getByRole('button', { name: 'Show 6 more (of 56)' }).click();
    await expect.poll(() => page.locator('.ranking .name').last().textContent()).toBe('Unrated Kick');
    // Beside the line on votes (a visitor's list, which has no such rows, says that one alone).
    expect(await page.locator('p.hint.live-line').textContent()).toContain(
      'Streamers without audience votes come last, in order of name.',
    );
    // Back to the public list: its rows alone again, without a reload.
    await page.getByLabel('Show all streamers with notes').uncheck();
    await page.getByText(outside).waitFor({ state: 'detached' });
    await expect.poll(() => page.getByText('Unrated Kick').count()).toBe(0);
    await context.close();
  });

  it('following: a visitor is told to sign in; signed in, Follow on the page, then the ranking keeps to Followed', async () => {
    const admin = await env.t.sharedAdmin();
    const id = ((await admin.get('/api/streamers?all=1')).body as { id: number; name: string }[]).find(
      (s) => s.name === 'Streamer 08',
    )!.id;
    const { page, context } = await newPage(env, { lang: 'en' });
    await page.goto(`${env.base}/s/${id}`);
    await page.getByText('Sign in to follow this streamer and hear when they go live.').waitFor();
    expect(await page.getByRole('button', { name: 'Follow', exact: true }).count()).toBe(0);
    await page.goto(env.base + '/');
    await page.locator('.ranking .name').first().waitFor();
    expect(await page.getByLabel('Followed').count()).toBe(0);

    await signIn(env, page, 'provider_a');
    await page.goto(`${env.base}/s/${id}`);
    await page.getByText('0 followers').waitFor();
    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    await page.getByRole('button', { name: 'Following', exact: true }).waitFor();
    await page.getByText('1 follower', { exact: true }).waitFor();
    await shot(page, 'following-streamer-page');
    await page.goto(env.base + '/');
    // Each row has its Follow button, the state of every row asked for once.
    await page.getByRole('button', { name: 'Following: Streamer 08', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Follow: Streamer 01', exact: true }).click();
    await page.getByRole('button', { name: 'Following: Streamer 01', exact: true }).waitFor();
    await page.getByLabel('Followed').check();
    await expect
      .poll(async () => (await page.locator('.ranking .name').allTextContents()).sort())
      .toEqual(['Streamer 01', 'Streamer 08']);
    expect(new URL(page.url()).searchParams.get('followed')).toBe('1');
    await shot(page, 'following-ranking');
    await page.getByRole('button', { name: 'Following: Streamer 01', exact: true }).click();
    await expect.poll(() => page.locator('.ranking .name').allTextContents()).toEqual(['Streamer 08']);

    // Made a moderator, the same user lists every streamer: one not yet in the Public view takes
    // no followers (404), so its row offers no Follow (a browser walk, stop 82).
    const me = (await page.request.get(`${env.base}/api/oauth/me`).then((r) => r.json())) as {
      user: { id: number };
    };
    expect((await admin.put(`/api/users?id=${me.user.id}`, { is_mod: true })).status).toBe(200);
    await page.goto(env.base + '/');
    await page.getByLabel('Followed').uncheck();
    await page.getByLabel('Show all streamers with notes').check();
    await page.getByRole('button', { name: 'Follow: Streamer 01', exact: true }).waitFor();
    await page.getByPlaceholder('Filter by name').fill('Kick');
    await expect.poll(() => page.locator('.ranking .name').allTextContents()).toEqual(['Unrated Kick']);
    expect(await page.locator('.ranking .follow').count()).toBe(0);
    await page.getByPlaceholder('Filter by name').fill('');
    await page.getByLabel('Show all streamers with notes').uncheck();
    expect((await admin.put(`/api/users?id=${me.user.id}`, { is_mod: false })).status).toBe(200);
    await context.close();

    // In Czech, from a shared address: the same user's follows, the filter checked.
    const cs = await newPage(env, { lang: 'cs' });
    await signIn(env, cs.page, 'provider_a');
    await cs.page.goto(env.base + '/?followed=1');
    await expect.poll(() => cs.page.locator('.ranking .name').allTextContents()).toEqual(['Streamer 08']);
    expect(await cs.page.getByLabel('Sledovaní').isChecked()).toBe(true);
    await cs.page.getByRole('link', { name: 'Streamer 08' }).first().click();
    await cs.page.getByRole('button', { name: 'Sledujete', exact: true }).click();
    await cs.page.getByRole('button', { name: 'Sledovat', exact: true }).waitFor();
    await cs.page.getByText('0 sledujících').waitFor();
    await cs.context.close();
  });

  it('explains the criteria and the reward; looks right at 375 and 1366 px, light and dark', async () => {
    for (const [phone, dark] of [
      [false, false],
      [true, false],
      [false, true],
      [true, true],
    ] as const) {
      const { page, context } = await newPage(env, { phone, dark, lang: dark ? 'en' : 'cs' });
      await page.goto(env.base + '/');
      await page.locator('.ranking .name').first().waitFor();
      await page.locator('.criteria summary').click();
      await page.locator('.criteria dd').first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        phone ? 375 : 1366,
      );
      // A rank of two digits stays on one line, inside its column (a walk saw "10" as "1" over "0" on a phone).
      const broken = await page.evaluate(() =>
        [...document.querySelectorAll('.ranking .rank')].flatMap((rank) => {
          const number = [...rank.childNodes].find(
            (n) => n.nodeType === Node.TEXT_NODE && /\d/.test(n.textContent ?? ''),
          );
          if (!number) return [];
          const digits = document.createRange();
          digits.selectNodeContents(number);
          const box = rank.getBoundingClientRect();
          const rects = [...digits.getClientRects()];
          const outside = rects.some((r) => r.left < box.left - 0.5 || r.right > box.right + 0.5);
          return rects.length > 1 || outside ? [rank.textContent] : [];
        }),
      );
      expect(broken).toEqual([]);
      if (phone) {
        // Text twice as large (a reader's zoom, WCAG 1.4.4): the rows reflow, nothing to scroll sideways.
        await page.evaluate(() => (document.documentElement.style.fontSize = '200%'));
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
        await page.evaluate(() => (document.documentElement.style.fontSize = ''));
      }
      await shot(page, `ranking-${phone ? 375 : 1366}-${dark ? 'dark' : 'light'}`);
      if (dark) await axe(env, page, `ranking ${phone ? 'phone' : 'desktop'} dark`);
      await context.close();
    }
  });
});
